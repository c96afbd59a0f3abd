// A warp per row, lane 0 writing its sum (after the CSR-vector SpMV of Bell
// and Garland, as SHOC's spmv vector kernel runs it, on dense rows with x all
// ones): the input is n / 32 rows of 32 * stride floats; the 32 work-items
// of a row read it in `stride` coalesced passes, add their sums in a tree in
// local memory within their 32, and the first of them writes out[row].
// Access: coalesced loads over the whole input; a local tree; one 4-byte
// store per warp, the warps of a group writing neighbouring words (eight
// words, a quarter of a sector per group at local 256). Runs like strided's
// stride variant; out beyond n / 32 is not written, so it is unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define ROW_ITEMS 32	/* work-items per row: one warp on NVIDIA */

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void rowsum_warp_per_row(__global const float *a, __global float *out, int stride)
{
	__local float part[LOCAL_SIZE];
	size_t i = get_global_id(0);
	uint l = get_local_id(0), lane = l % ROW_ITEMS;
	size_t row = i / ROW_ITEMS;
	size_t len = (size_t)ROW_ITEMS * stride;	/* floats in a row */
	float sum = 0.0f;

	for (int k = 0; k < stride; k++)
		sum += a[row * len + (size_t)k * ROW_ITEMS + lane];
	part[l] = sum;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = ROW_ITEMS / 2; s > 0; s /= 2) {
		if (lane < s)
			part[l] += part[l + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lane == 0)
		out[row] = part[l];
}
