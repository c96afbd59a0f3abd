// Per-feature sums of a group's records, a warp per feature (after the
// centre update of Rodinia's kmeans, which sums each feature of the points
// in a cluster): a group's TILE_SIZE floats are TILE_SIZE / FIELDS records
// of FIELDS floats, and work-item t takes feature t / RECS of record
// t % RECS, so at 256 work-items each warp reads one feature of all 32
// records. The features are summed over the records in local memory, then
// added into the group's partial, so the sum verifies. Access: each warp's
// 32 loads one 4-byte word in each of 32 sectors (one record each); the
// group's 8 warps read the same 8 lines, each sector once per warp. Runs
// like reduction's sequential variant.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

#define FIELDS 8
#define RECS (TILE_SIZE / FIELDS)	/* records per group */

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void centroid_fields_by_warp(__global const float *data, __global float *partial)
{
	__local float sums[TILE_SIZE];
	unsigned tid = get_local_id(0);
	unsigned f = tid / RECS, r = tid % RECS;
	size_t base = get_group_id(0) * (size_t)TILE_SIZE;

	sums[tid] = data[base + r * FIELDS + f];
	barrier(CLK_LOCAL_MEM_FENCE);
	/* Feature f's sum over the records gathers into sums[f * RECS]. */
	for (unsigned s = RECS / 2; s > 0; s /= 2) {
		if (r < s)
			sums[tid] += sums[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0) {
		float total = 0.0f;

		for (unsigned k = 0; k < FIELDS; k++)
			total += sums[k * RECS];
		partial[get_group_id(0)] = total;
	}
}
