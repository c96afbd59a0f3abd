// After BabelStream's Add (c = a + b): two read streams, one write stream,
// C = A + B over the N x N elements, one per work-item. Access: two
// coalesced loads and one store per work-item. Runs like myadd's MyAdd_2D
// variant (global N x N); unverified (MyAdd's check wants 2A or 0).

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

__kernel void stream_add(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	size_t at = get_global_id(1) * N + get_global_id(0);

	C[at] = A[at] + B[at];
}
