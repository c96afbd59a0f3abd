// After PolyBench/GPU gemm, the naive kernel: r = 1.5 d d + 1.2 d (its C =
// alpha A B + beta C with every matrix d), one output per work-item, the
// first global index along a row. Access: per k a broadcast word of row j
// and a coalesced row segment of d, as min-plus's v1; then one load and one
// store. Runs like minplus's v1 variant; a product, not a min-plus one, so
// unverified.

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void gemm_naive(__global float *r, __global const float *d, int n)
{
	int i = get_global_id(0);
	int j = get_global_id(1);

	if (i >= n || j >= n)
		return;
	float sum = 0.0f;

	for (int k = 0; k < n; k++)
		sum += d[(size_t)n * j + k] * d[(size_t)n * k + i];
	r[(size_t)n * j + i] = 1.5f * sum + 1.2f * d[(size_t)n * j + i];
}
