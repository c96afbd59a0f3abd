// After BabelStream's nstream (a += b + scalar * c: three reads, one write).
// The harness's C is write-only, so the third read stream is the other half
// of A instead of C itself: C = A + B + 0.4 A', A' running N * N / 2 elements
// ahead (wrapped). Access: three coalesced loads and one store per
// work-item. Runs like myadd's MyAdd_2D variant (global N x N); unverified.

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

__kernel void stream_nstream(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	size_t total = (size_t)N * N;
	size_t at = get_global_id(1) * N + get_global_id(0);
	size_t ahead = at + total / 2;

	ahead = ahead >= total ? ahead - total : ahead;
	C[at] = A[at] + B[at] + (REAL)0.4 * A[ahead];
}
