// Dot product, after seed 004 ("Optimization Strategies"): the kernels keep the
// tutorial's names and indexing. The host adds the partial sums in double, as
// the tutorial's host code does. Two changes, both for sizes the tutorial did
// not reach: NaiveDot computes its chunk bounds in 64-bit (n * i overflows an
// int past 2^31), and the catalog asks for n to be a multiple of the number of
// work-items, so the tutorial's ClearResps/PreSum step for the remainder is not
// needed and the kernels write resps[i] instead of adding to it.
// LOCAL_SIZE is the work-group size (the tutorial's `values[256]`), declared to
// the compiler with reqd_work_group_size.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

// Naive: each work-item sums a contiguous chunk. Neighbouring work-items read
// addresses n / nWorkItems apart: nothing coalesces.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void NaiveDot(__global const float *v1, __global const float *v2, __global float *resps,
		       __constant int *NN)
{
	int n = NN[0];
	int i = get_global_id(0);
	int nWorkItems = get_global_size(0);
	int jmin = (int)(((long)n * i) / nWorkItems);
	int jmax = (int)(((long)n * (i + 1)) / nWorkItems);
	float val = 0.0f;

	for (int j = jmin; j < jmax; j++)
		val += v1[j] * v2[j];
	resps[i] = val;
}

// Coalesced: in the j-th iteration work-item i reads element i + j * nWorkItems,
// so a warp reads one contiguous block per iteration.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void CoalescedDot(__global const float *v1, __global const float *v2,
			   __global float *resps, __constant int *KK)
{
	int i = get_global_id(0);
	int nWorkItems = get_global_size(0);
	int k = KK[0];
	float val = 0.0f;
	int ind = i;

	for (int j = 0; j < k; j++) {
		val += v1[ind] * v2[ind];
		ind += nWorkItems;
	}
	resps[i] = val;
}

// Coalesced, then a __local reduction, so the host adds one value per
// work-group instead of one per work-item.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void CoalLocalDot(__global const float *v1, __global const float *v2,
			   __global float *resps, __constant int *KK)
{
	int i = get_global_id(0);
	int nWorkItems = get_global_size(0);
	int k = KK[0];
	float val = 0.0f;
	int ind = i;

	for (int j = 0; j < k; j++) {
		val += v1[ind] * v2[ind];
		ind += nWorkItems;
	}
	// Reduction part
	int p = get_local_id(0);
	int q = get_group_id(0);
	int maxp = get_local_size(0);
	__local float values[LOCAL_SIZE];

	values[p] = val;
	barrier(CLK_LOCAL_MEM_FENCE);
	maxp = maxp >> 1;
	while (maxp > 0) {
		if (p < maxp)
			values[p] += values[p + maxp];
		maxp = maxp >> 1;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (p == 0)
		resps[q] = values[0];
}
