// After PolyBench/GPU fdtd-2d, its third kernel (the magnetic field from the
// two electric ones): hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j] + ey[i+1][j] -
// ey[i][j]), here with A as ex, B as ey (unfilled by the harness) and C the
// new hz; the last row and column clamp their +1 neighbour. Access: two
// loads of A in one row, two of B in two rows, one store, one element per
// work-item. Runs like myadd's MyAdd_2D variant (global N x N); unverified.

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

__kernel void fdtd_hz(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	size_t j = get_global_id(0), i = get_global_id(1);
	size_t jr = j + 1 < N ? j + 1 : j, id = i + 1 < N ? i + 1 : i;

	C[i * N + j] = (REAL)-0.7 * (A[i * N + jr] - A[i * N + j] + B[id * N + j] - B[i * N + j]);
}
