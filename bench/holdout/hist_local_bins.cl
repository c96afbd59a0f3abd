// A histogram-like accumulation in local memory (after Parboil's histo and
// the CUDA samples' histogram64): each work-item bumps the local bin of its
// value with atomic_inc, then the group weighs each bin by its value and adds
// them. The reduction's inputs are small integers (-8 .. 8), so the weighted
// bins give exactly the group's sum and it verifies; a value outside the
// bins is clamped into the last one. Access: one coalesced load, one local
// atomic per work-item (colliding on popular bins), a 32-bin tree. Runs like
// reduction's sequential variant.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

#define BINS 32
#define ZERO_BIN 16	/* value v counts in bin v + 16 */

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void hist_local_bins(__global const float *data, __global float *partial)
{
	__local int counts[BINS];
	__local float weighed[BINS];
	unsigned tid = get_local_id(0);

	for (unsigned b = tid; b < BINS; b += TILE_SIZE)
		counts[b] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	int bin = clamp((int)data[get_global_id(0)] + ZERO_BIN, 0, BINS - 1);

	atomic_inc(&counts[bin]);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned b = tid; b < BINS; b += TILE_SIZE)
		weighed[b] = (float)((int)b - ZERO_BIN) * (float)counts[b];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = BINS / 2; s > 0; s /= 2) {
		if (tid < s)
			weighed[tid] += weighed[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		partial[get_group_id(0)] = weighed[0];
}
