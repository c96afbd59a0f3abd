// Per-work-group histograms written out bin-major (after the CUDA samples'
// histogram256 and Parboil's histo, whose groups each write a
// sub-histogram for a later merge pass; here laid out bin by bin, so the
// merge would read each bin's counts contiguously): each group counts its
// LOCAL_SIZE values into LOCAL_SIZE local bins with atomic_inc, and
// work-item b writes the count of bin b to out[b * groups + group]. The
// values are uniform in [-1, 1), so the bins cut that range evenly. Access:
// one coalesced load and one local atomic per work-item, then a store per
// work-item `groups` floats from its neighbour's: each warp writes one
// 4-byte word in each of 32 lines, and the next 31 groups (running at about
// the same time) fill the rest of those lines. Runs like copy's float
// variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define BINS LOCAL_SIZE

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void hist_bins_bin_major(__global const float *in, __global float *out, uint count)
{
	__local int bins[BINS];
	size_t i = get_global_id(0);
	uint b = get_local_id(0);

	bins[b] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (i < count)
		atomic_inc(&bins[clamp((int)((in[i] + 1.0f) * (0.5f * BINS)), 0, BINS - 1)]);
	barrier(CLK_LOCAL_MEM_FENCE);
	size_t o = (size_t)b * get_num_groups(0) + get_group_id(0);

	/* Past count only where count is not a whole number of groups. */
	if (o < count)
		out[o] = (float)bins[b];
}
