// The CUDA samples' reductions #5 and #6: the first add happens during the
// load (two elements a tile apart), and the tree is unrolled at compile time
// for the build's TILE_SIZE, the last warp's steps included. Those steps keep
// their barriers, as in the OpenCL form (which cannot rely on lockstep
// warps), rather than the samples' volatile warp-synchronous code. Two
// coalesced loads per thread, then the sequential tree's shared accesses. It
// verifies. Runs like reduction's first_add variant (reduction_first_add in
// kernels/reduction.cu, a grid of n / 2 threads).
//
// The CUDA form of ../reduce_unrolled_tree.cl, line for line.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

/* One step of the tree, present only where the tile is wider than s. */
#define TREE_STEP(s)                                                    \
	if (TILE_SIZE > (s)) {                                          \
		if (tid < (s))                                          \
			sums[tid] += sums[tid + (s)];                   \
		__syncthreads();                                        \
	}

extern "C" __global__ void reduce_unrolled_tree(const float *data, float *partial)
{
	__shared__ float sums[TILE_SIZE];
	unsigned tid = threadIdx.x;
	size_t i = blockIdx.x * (size_t)(2 * TILE_SIZE) + tid;

	sums[tid] = data[i] + data[i + TILE_SIZE];
	__syncthreads();
	TREE_STEP(512)
	TREE_STEP(256)
	TREE_STEP(128)
	TREE_STEP(64)
	TREE_STEP(32)
	TREE_STEP(16)
	TREE_STEP(8)
	TREE_STEP(4)
	TREE_STEP(2)
	TREE_STEP(1)
	if (tid == 0)
		partial[blockIdx.x] = sums[0];
}
