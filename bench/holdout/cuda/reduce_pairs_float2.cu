// The first add during the load, from neighbouring pairs: each thread loads
// elements 2g and 2g + 1 as one 8-byte float2, instead of two words a tile
// apart, so a block's 2 TILE_SIZE elements come in one contiguous request
// per warp. 8-byte coalesced loads, then the sequential tree. It verifies.
// Runs like reduction's first_add variant (reduction_first_add in
// kernels/reduction.cu, a grid of n / 2 threads).
//
// The CUDA form of ../reduce_pairs_float2.cl, line for line: vload2(g, data)
// is a float2 load of ((const float2 *)data)[g] (8-byte aligned).

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

extern "C" __global__ void reduce_pairs_float2(const float *data, float *partial)
{
	__shared__ float sums[TILE_SIZE];
	unsigned tid = threadIdx.x;
	float2 pair = ((const float2 *)data)[blockIdx.x * (size_t)blockDim.x + threadIdx.x];

	sums[tid] = pair.x + pair.y;
	__syncthreads();
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partial[blockIdx.x] = sums[0];
}
