// After BabelStream's Triad (a = b + scalar * c): two read streams and one
// write stream, here C = A + 0.4 B over the N x N elements, one per
// work-item (the row's index second, so a warp's elements are neighbours).
// Access: two coalesced loads and one store per work-item. Runs like myadd's
// MyAdd_2D variant (global N x N); B is the harness's unfilled buffer, so
// the result is unverified.

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

__kernel void stream_triad(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	size_t at = get_global_id(1) * N + get_global_id(0);

	C[at] = A[at] + (REAL)0.4 * B[at];
}
