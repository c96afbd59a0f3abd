// The first add during the load, from adjacent pairs: each work-item loads
// elements 2g and 2g + 1 with one vload2 (8 bytes) instead of two words a
// tile apart, so a group's 2 TILE_SIZE elements arrive in one contiguous
// request per warp. Access: 8-byte coalesced loads, then the sequential
// tree. It verifies. Runs like reduction's first_add variant (global n / 2).

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduce_pairs_float2(__global const float *data, __global float *partial)
{
	__local float sums[TILE_SIZE];
	unsigned tid = get_local_id(0);
	float2 pair = vload2(get_global_id(0), data);

	sums[tid] = pair.x + pair.y;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		partial[get_group_id(0)] = sums[0];
}
