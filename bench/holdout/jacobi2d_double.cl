// After PolyBench/GPU jacobi-2d in its own precision (double): C[i][j] =
// 0.2 (A[i][j] + A[i][j-1] + A[i][j+1] + A[i-1][j] + A[i+1][j]), one element
// per work-item, edges clamped. Access: five 8-byte loads from three rows
// (a warp's neighbours share the lines), one coalesced store. Runs like
// myadd's MyAdd_2D variant (global N x N, the first index along a row);
// unverified.

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

__kernel void jacobi2d_double(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	size_t j = get_global_id(0), i = get_global_id(1);
	size_t jl = j > 0 ? j - 1 : 0, jr = j + 1 < N ? j + 1 : N - 1;
	size_t iu = i > 0 ? i - 1 : 0, id = i + 1 < N ? i + 1 : N - 1;

	C[i * N + j] = (REAL)0.2 * (A[i * N + j] + A[i * N + jl] + A[i * N + jr] +
				    A[iu * N + j] + A[id * N + j]);
}
