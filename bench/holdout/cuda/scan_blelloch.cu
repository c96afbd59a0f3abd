// Blelloch's work-efficient scan (GPU Gems 3, chapter 39, without its
// padding against bank conflicts): an up-sweep builds a tree of partial sums
// in shared memory, the root is zeroed, and a down-sweep turns the tree into
// the exclusive prefix sum. The last exclusive sum plus the last value is the
// block's total, written as a reduction writes it, so it verifies. One
// coalesced load, then 2 log2(TILE_SIZE) steps whose shared accesses are 2d
// words apart (conflicts growing with d), a barrier each. Runs like
// reduction's sequential variant (reduction_tiled_3 in kernels/reduction.cu).
//
// The CUDA form of ../scan_blelloch.cl, line for line.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

extern "C" __global__ void scan_blelloch(const float *data, float *partial)
{
	__shared__ float tree[TILE_SIZE];
	unsigned tid = threadIdx.x;
	float mine = data[blockIdx.x * (size_t)blockDim.x + threadIdx.x];

	tree[tid] = mine;
	__syncthreads();
	for (unsigned d = 1; d < TILE_SIZE; d *= 2) {
		unsigned i = (tid + 1) * 2 * d - 1;

		if (i < TILE_SIZE)
			tree[i] += tree[i - d];
		__syncthreads();
	}
	if (tid == 0)
		tree[TILE_SIZE - 1] = 0.0f;
	__syncthreads();
	for (unsigned d = TILE_SIZE / 2; d > 0; d /= 2) {
		unsigned i = (tid + 1) * 2 * d - 1;

		if (i < TILE_SIZE) {
			float left = tree[i - d];

			tree[i - d] = tree[i];
			tree[i] += left;
		}
		__syncthreads();
	}
	if (tid == TILE_SIZE - 1)
		partial[blockIdx.x] = tree[tid] + mine;
}
