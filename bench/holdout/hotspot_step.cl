// After Rodinia's hotspot: one explicit step of the chip's heat equation,
// each cell's new temperature from its own, its four neighbours' (edges
// clamped) and its power: A is the temperature grid, B the power grid (the
// harness leaves it unfilled; the access is what counts here). Access: five
// loads of A from three rows, one of B, one store, one element per
// work-item. Runs like myadd's MyAdd_2D variant (global N x N); unverified.

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

#define STEP_OVER_CAP ((REAL)0.0437)
#define RX_INV ((REAL)0.51)
#define RY_INV ((REAL)0.51)
#define RZ_INV ((REAL)0.0039)
#define AMBIENT ((REAL)80.0)

__kernel void hotspot_step(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	size_t j = get_global_id(0), i = get_global_id(1);
	size_t w = j > 0 ? j - 1 : 0, e = j + 1 < N ? j + 1 : N - 1;
	size_t n = i > 0 ? i - 1 : 0, s = i + 1 < N ? i + 1 : N - 1;
	REAL t = A[i * N + j];
	REAL flow = B[i * N + j] + (A[s * N + j] + A[n * N + j] - 2 * t) * RY_INV +
		    (A[i * N + e] + A[i * N + w] - 2 * t) * RX_INV + (AMBIENT - t) * RZ_INV;

	C[i * N + j] = t + STEP_OVER_CAP * flow;
}
