// A gather through a hash, as a reduction: work-item i loads element
// (i * 2654435761) mod n instead of element i. The multiplier is odd, so for a
// power-of-two n every element is still read exactly once and the sum (what
// the reduction family verifies) is the same; but a warp's 32 loads now land
// in 32 different sectors, as a gather through a random index array would.
// Runs like the reduction's sequential variant (the same arguments, launch and
// local tree).
__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void gather(__global const float *data, __global float *partial)
{
	__local float tile_data[TILE_SIZE];
	unsigned local_idx = get_local_id(0);
	unsigned n = get_global_size(0);

	tile_data[local_idx] = data[(get_global_id(0) * 2654435761u) & (n - 1)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (local_idx < s)
			tile_data[local_idx] += tile_data[local_idx + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (local_idx == 0)
		partial[get_group_id(0)] = tile_data[0];
}
