// A transpose through a shared-memory tile whose side is a define (-D
// tile=...), against the naive one: the twin of tests/fixtures/own/tiled.json.
extern "C" __global__ void transpose_naive(unsigned n, const float *in, float *out)
{
	unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;

	out[x * n + y] = in[y * n + x];
}

extern "C" __global__ void transpose_tiled(unsigned n, const float *in, float *out)
{
	__shared__ float t[tile][tile + 1];
	unsigned lx = threadIdx.x, ly = threadIdx.y;
	unsigned x = blockIdx.x * tile + lx, y = blockIdx.y * tile + ly;

	t[ly][lx] = in[y * n + x];
	__syncthreads();
	x = blockIdx.y * tile + lx;
	y = blockIdx.x * tile + ly;
	out[y * n + x] = t[lx][ly];
}
