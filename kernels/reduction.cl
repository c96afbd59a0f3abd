// Sum reduction, one pass: each work-group reduces its part of the input to one
// partial sum and the host adds the partial sums (as the dot product of seed 004
// does). TILE_SIZE is the work-group size, a compile-time constant as in seed
// 001, whose two kernels keep their names and indexing here, translated from
// C++ AMP (tile_static -> __local, tidx.barrier.wait() -> barrier(), local_idx ->
// get_local_id(0)).
// Each kernel declares the work-group size it is launched with
// (reqd_work_group_size), so the compiler knows it.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

// Seed 001's reduction_tiled_2: interleaved addressing, index = 2 * s * local_idx.
// Successive work-items touch words 2s apart, so the tile accesses conflict in
// the banks more and more as s grows.
__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduction_tiled_2(__global const float *data, __global float *partial)
{
	__local float tile_data[TILE_SIZE];
	unsigned local_idx = get_local_id(0);

	tile_data[local_idx] = data[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = 1; s < TILE_SIZE; s *= 2) {
		unsigned index = 2 * s * local_idx;

		if (index < TILE_SIZE)
			tile_data[index] += tile_data[index + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (local_idx == 0)
		partial[get_group_id(0)] = tile_data[0];
}

// Seed 001's reduction_tiled_3: sequential addressing. The active work-items
// (local_idx < s) read consecutive words: no bank conflicts.
__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduction_tiled_3(__global const float *data, __global float *partial)
{
	__local float tile_data[TILE_SIZE];
	unsigned local_idx = get_local_id(0);

	tile_data[local_idx] = data[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (local_idx < s)
			tile_data[local_idx] += tile_data[local_idx + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (local_idx == 0)
		partial[get_group_id(0)] = tile_data[0];
}

// Faster, 1: the first add happens during the load. Each work-item reads two
// elements a tile apart, so half the work-groups do the same work and no
// work-item idles in the first step of the tree.
__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduction_first_add(__global const float *data, __global float *partial)
{
	__local float tile_data[TILE_SIZE];
	unsigned local_idx = get_local_id(0);
	size_t i = get_group_id(0) * (size_t)(2 * TILE_SIZE) + local_idx;

	tile_data[local_idx] = data[i] + data[i + TILE_SIZE];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (local_idx < s)
			tile_data[local_idx] += tile_data[local_idx + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (local_idx == 0)
		partial[get_group_id(0)] = tile_data[0];
}

// Faster, 2: a grid-stride loop over float4 elements with as many work-groups
// as the device runs at once. Four independent accumulators keep four 16-byte
// loads in flight per work-item; the tree in local memory runs once per group
// instead of once per TILE_SIZE elements. n4 is the input's length in float4s.
__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduction_grid_stride(__global const float4 *data, __global float *partial, uint n4)
{
	__local float tile_data[TILE_SIZE];
	unsigned local_idx = get_local_id(0);
	size_t stride = get_global_size(0);
	size_t i = get_global_id(0);
	float4 acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;

	for (; i + 3 * stride < n4; i += 4 * stride) {
		acc0 += data[i];
		acc1 += data[i + stride];
		acc2 += data[i + 2 * stride];
		acc3 += data[i + 3 * stride];
	}
	for (; i < n4; i += stride)
		acc0 += data[i];
	acc0 += acc1 + acc2 + acc3;
	tile_data[local_idx] = acc0.x + acc0.y + acc0.z + acc0.w;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (local_idx < s)
			tile_data[local_idx] += tile_data[local_idx + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (local_idx == 0)
		partial[get_group_id(0)] = tile_data[0];
}
