// After Blelloch's work-efficient scan (GPU Gems 3, ch. 39, without its
// bank-conflict padding): an up-sweep builds partial sums in a tree in local
// memory, the root is cleared, a down-sweep turns the tree into the exclusive
// prefix sum. The last exclusive sum plus the last value is the group's
// total, which it writes as a reduction would: it verifies. Access: one
// coalesced load, then 2 log2(TILE_SIZE) steps whose local accesses are
// 2d words apart (conflicts grow with d), a barrier each. Runs like
// reduction's sequential variant.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void scan_blelloch(__global const float *data, __global float *partial)
{
	__local float tree[TILE_SIZE];
	unsigned tid = get_local_id(0);
	float mine = data[get_global_id(0)];

	tree[tid] = mine;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned d = 1; d < TILE_SIZE; d *= 2) {
		unsigned i = (tid + 1) * 2 * d - 1;

		if (i < TILE_SIZE)
			tree[i] += tree[i - d];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		tree[TILE_SIZE - 1] = 0.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned d = TILE_SIZE / 2; d > 0; d /= 2) {
		unsigned i = (tid + 1) * 2 * d - 1;

		if (i < TILE_SIZE) {
			float left = tree[i - d];

			tree[i - d] = tree[i];
			tree[i] += left;
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == TILE_SIZE - 1)
		partial[get_group_id(0)] = tree[tid] + mine;
}
