// The coalesced dot product with its loop unrolled by four into four
// independent accumulators (the usual cure for a loop-carried add): work-item
// i still reads elements i, i + items, i + 2 items, ..., but four loads of
// each vector are in flight at once. Access: as CoalescedDot, unit stride
// across a warp. Every work-item's partial is CoalescedDot's, so it
// verifies. Runs like dot's coalesced variant.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void dot_unroll4(__global const float *v1, __global const float *v2,
		 __global float *resps, __constant int *KK)
{
	size_t i = get_global_id(0);
	size_t items = get_global_size(0);
	int k = KK[0];
	float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
	int j = 0;

	for (; j + 3 < k; j += 4) {
		size_t at = i + (size_t)j * items;

		a0 += v1[at] * v2[at];
		a1 += v1[at + items] * v2[at + items];
		a2 += v1[at + 2 * items] * v2[at + 2 * items];
		a3 += v1[at + 3 * items] * v2[at + 3 * items];
	}
	for (; j < k; j++) {
		size_t at = i + (size_t)j * items;

		a0 += v1[at] * v2[at];
	}
	resps[i] = (a0 + a1) + (a2 + a3);
}
