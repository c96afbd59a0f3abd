// After seed 000's MyAdd, one row per work-item, reading and writing two
// elements at a time (vload2 / vstore2: 16 bytes in double). Same results
// as MyAdd: it verifies. Access: each work-item walks its own row with
// 16-byte requests, neighbours a row apart. Runs like myadd's MyAdd variant
// (global N, the driver's work-group). N is a multiple of 16, so the pairs
// fill every row; the scalar tail is there for any other N.

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#define REAL2 double2
#else
#define REAL float
#define REAL2 float2
#endif

__kernel void myadd_row_vec2(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	unsigned int i = get_global_id(0);

	if (i >= N)
		return;
	const REAL __global *a_row = A + (size_t)i * N;
	REAL __global *c_row = C + (size_t)i * N;
	unsigned int j = 0;

	for (; j + 2 <= N; j += 2) {
		REAL2 a = vload2(0, a_row + j);

		vstore2(i % 2 == 0 ? a + a : a - a, 0, c_row + j);
	}
	for (; j < N; j++)
		c_row[j] = i % 2 == 0 ? a_row[j] + a_row[j] : a_row[j] - a_row[j];
}
