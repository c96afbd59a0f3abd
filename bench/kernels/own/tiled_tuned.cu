// The CUDA twin of bench/plans/tuning-own-tiled.json's transpose: a tile of
// shared memory tx wide and ty tall (build-time defines), each thread moving
// rows elements of it, the tile's rows padded by skew floats; against the
// naive transpose. (A define named pad would break NVRTC's own header, which
// has a member of that name.)
extern "C" __global__ void transpose_naive(unsigned n, const float *in, float *out)
{
	unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;

	out[x * n + y] = in[y * n + x];
}

extern "C" __global__ void transpose_tiled(unsigned n, const float *in, float *out)
{
	__shared__ float t[ty][tx + skew];
	unsigned lx = threadIdx.x, ly = threadIdx.y;
	unsigned bx = blockIdx.x * tx, by = blockIdx.y * ty;
	unsigned l = ly * tx + lx;

	for (unsigned j = 0; j < ty; j += ty / rows)
		t[ly + j][lx] = in[(by + ly + j) * n + bx + lx];
	__syncthreads();
	for (unsigned k = 0; k < rows; k++) {
		unsigned e = l + k * (tx * ty / rows);

		out[(bx + e / ty) * n + by + e % ty] = t[e % ty][e / ty];
	}
}
