// After seed 000's MyAdd_col, turned to walk a column per work-item: work-item
// j owns column j and loops down the rows, writing 2A on even columns and
// A - A on odd ones (MyAdd_col's result), so it verifies. Access: at each
// step a warp reads and writes neighbouring elements of one row (coalesced),
// each work-item moving N elements per step; even and odd work-items
// diverge. Runs like myadd's MyAdd_col variant (global N, output checked by
// columns).

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

__kernel void myadd_col_walk(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	unsigned int j = get_global_id(0);

	if (j >= N)
		return;
	for (unsigned int i = 0; i < N; i++) {
		size_t at = (size_t)i * N + j;

		if (j % 2 == 0)
			C[at] = A[at] + A[at];
		else
			C[at] = A[at] - A[at];
	}
}
