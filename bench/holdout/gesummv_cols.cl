// After PolyBench/GPU gesummv: y = alpha A x + beta B x, one output per
// work-item, walking down a column of each matrix: A and B are the two
// vectors each seen as k = n / items rows of `items` floats (so work-item i
// owns column i), x is the first k floats of the second vector. Access: per
// step two coalesced row segments (A's and B's) and one broadcast word of x.
// Runs like dot's coalesced variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void gesummv_cols(__global const float *v1, __global const float *v2,
		  __global float *resps, __constant int *KK)
{
	size_t i = get_global_id(0), items = get_global_size(0);
	int k = KK[0];
	float ax = 0.0f, bx = 0.0f;

	for (int j = 0; j < k; j++) {
		float x = v2[j];
		size_t at = (size_t)j * items + i;

		ax += v1[at] * x;
		bx += v2[at] * x;
	}
	resps[i] = 1.5f * ax + 1.2f * bx;
}
