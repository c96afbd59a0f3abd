// After seed 000's MyAdd_2D with its two indexes swapped: the first global
// index walks the columns and the second the rows, so a warp's neighbours
// read neighbouring elements of one row (where MyAdd_2D's are N elements
// apart). Still 2A on even rows and A - A on odd ones: it verifies. Access:
// one coalesced load and store per work-item, no divergence within a row.
// Runs like myadd's MyAdd_2D variant (global N x N, the driver's work-group).

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

__kernel void myadd_2d_coalesced(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	size_t j = get_global_id(0);
	size_t i = get_global_id(1);
	size_t at = i * N + j;
	REAL a = A[at];

	C[at] = i % 2 == 0 ? a + a : a - a;
}
