// A matrix-vector product, one row per work-item (PolyBench/GPU's atax and
// 2mm kernels, and mvt's first product, compute y = A x this way): A is the
// first vector seen as items rows of k = n / items floats, x the first k
// floats of the second. Access: each work-item walks its row, so a warp's
// loads are k floats apart (32 sectors per request); x is read by the whole
// warp at once (one broadcast sector). Runs like dot's coalesced variant;
// unverified (it is not a dot product).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void matvec_rows(__global const float *v1, __global const float *v2,
		 __global float *resps, __constant int *KK)
{
	size_t i = get_global_id(0);
	int k = KK[0];
	__global const float *row = v1 + i * (size_t)k;
	float sum = 0.0f;

	for (int j = 0; j < k; j++)
		sum += row[j] * v2[j];
	resps[i] = sum;
}
