// One contiguous stretch per thread: each thread of the persistent grid adds
// its own run of about n4 / threads float4s, the CPU habit that the dot
// experiment's NaiveDot shows on a GPU. Each thread reads consecutive
// float4s, but its neighbours are a whole stretch away, so every warp request
// touches 32 sectors; one tree per block. It verifies. Runs like reduction's
// grid_stride variant (reduction_grid_stride in kernels/reduction.cu).
//
// The CUDA form of ../reduce_row_walk.cl, line for line; the float4 add is
// written out field by field (CUDA's float4 has no arithmetic).

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

extern "C" __global__ void reduce_row_walk(const float4 *data, float *partial, unsigned int n4)
{
	__shared__ float sums[TILE_SIZE];
	unsigned tid = threadIdx.x;
	size_t items = (size_t)gridDim.x * blockDim.x, i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t begin = (size_t)n4 * i / items, end = (size_t)n4 * (i + 1) / items;
	float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

	for (size_t k = begin; k < end; k++) {
		float4 v = data[k];

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
