// A row-per-work-item walk: each work-item of the persistent grid adds its
// own contiguous stretch of about n4 / items float4s (the CPU habit that the
// dot experiment's NaiveDot shows on a GPU). Access: each work-item reads
// consecutive float4s, but neighbours are a whole stretch apart, so every
// warp request touches 32 sectors; one tree per group. It verifies. Runs like
// reduction's grid_stride variant.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduce_row_walk(__global const float4 *data, __global float *partial, uint n4)
{
	__local float sums[TILE_SIZE];
	unsigned tid = get_local_id(0);
	size_t items = get_global_size(0), i = get_global_id(0);
	size_t begin = (size_t)n4 * i / items, end = (size_t)n4 * (i + 1) / items;
	float4 acc = 0.0f;

	for (size_t k = begin; k < end; k++)
		acc += data[k];
	sums[tid] = acc.x + acc.y + acc.z + acc.w;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		partial[get_group_id(0)] = sums[0];
}
