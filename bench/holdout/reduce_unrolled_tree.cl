// After the CUDA samples' reductions #5 and #6: the first add during the load
// (two elements a tile apart) and the tree unrolled completely at compile
// time for the build's TILE_SIZE, the last warp's steps included. OpenCL
// does not promise lockstep warps, so those steps keep their barriers
// instead of the samples' volatile warp-synchronous code. Access: two
// coalesced loads per work-item, the sequential tree's local accesses. It
// verifies. Runs like reduction's first_add variant (global n / 2).

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

/* One step of the tree, present only where the tile is wider than s. */
#define TREE_STEP(s)                                                    \
	if (TILE_SIZE > (s)) {                                          \
		if (tid < (s))                                          \
			sums[tid] += sums[tid + (s)];                   \
		barrier(CLK_LOCAL_MEM_FENCE);                           \
	}

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduce_unrolled_tree(__global const float *data, __global float *partial)
{
	__local float sums[TILE_SIZE];
	unsigned tid = get_local_id(0);
	size_t i = get_group_id(0) * (size_t)(2 * TILE_SIZE) + tid;

	sums[tid] = data[i] + data[i + TILE_SIZE];
	barrier(CLK_LOCAL_MEM_FENCE);
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
		partial[get_group_id(0)] = sums[0];
}
