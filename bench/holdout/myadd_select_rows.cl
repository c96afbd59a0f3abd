// After seed 000's MyAdd (one work-item per row, looping over the columns),
// with the even/odd branch turned into a select: every work-item of a warp
// runs the same instructions. Rows still alternate 2A and A - A, so it
// verifies. Access: each work-item walks its own row (neighbours N elements
// apart: one useful element per request and work-item). Runs like myadd's
// MyAdd variant (global N, the driver's work-group); REAL is double with
// -D WL_FP64.

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

__kernel void myadd_select_rows(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	unsigned int i = get_global_id(0);

	if (i >= N)
		return;
	size_t row = (size_t)i * N;
	int odd = i & 1;

	for (unsigned int j = 0; j < N; j++) {
		REAL a = A[row + j];

		C[row + j] = odd ? a - a : a + a;
	}
}
