// A grid-stride reduction visiting its float4s in a shuffled order (a
// random-access sum, as GUPS's reads): the persistent grid's threads take
// j = g, g + grid, ... as reduction_grid_stride does, but load data[h(j)], h
// an odd multiply then an xor-shift modulo n4, a permutation for a
// power-of-two n4 (the plans' sizes), so every float4 is added once and the
// sum verifies. A warp's 32 loads of 16 bytes in 32 unrelated sectors
// anywhere in the input (256 MiB at the far point); one tree per block. Runs
// like reduction's grid_stride variant (reduction_grid_stride in
// kernels/reduction.cu).
//
// The CUDA form of ../reduce_gather_float4.cl, line for line: CUDA's float4
// has no arithmetic, so the float4 add is written out field by field.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

/* A bijection on [0, n4) for a power-of-two n4. */
__device__ unsigned int shuffle(unsigned int j, unsigned int n4)
{
	unsigned int h = (j * 0x2545F491u) % n4;

	return (h ^ (h >> 9)) % n4;
}

extern "C" __global__ void reduce_gather_float4(const float4 *data, float *partial, unsigned int n4)
{
	__shared__ float sums[TILE_SIZE];
	unsigned tid = threadIdx.x;
	float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

	for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n4; j += (size_t)gridDim.x * blockDim.x) {
		float4 v = data[shuffle((unsigned int)j, n4)];

		acc.x += v.x;
		acc.y += v.y;
		acc.z += v.z;
		acc.w += v.w;
	}
	sums[tid] = acc.x + acc.y + acc.z + acc.w;
	__syncthreads();
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partial[blockIdx.x] = sums[0];
}
