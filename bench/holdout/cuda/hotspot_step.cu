// Rodinia's hotspot: one explicit step of the chip's heat equation, each
// cell's new temperature from its own, its four neighbours' (edges clamped)
// and its power. A is the temperature grid and B the power grid (left
// unfilled by the harness; only the accesses matter here). Five loads of A
// from three rows, one of B, one store, one element per thread. Runs like
// myadd's MyAdd_2D variant (MyAdd_2D in kernels/myadd.cu, an N x N grid);
// unverified.
//
// The CUDA form of ../hotspot_step.cl, line for line.

// REAL follows the harness exactly as in the OpenCL form: double with
// -D WL_FP64 (which the harness passes where the device has doubles, in a CUDA
// run as in an OpenCL one), float without it.
#ifdef WL_FP64
#define REAL double
#else
#define REAL float
#endif

#define STEP_OVER_CAP ((REAL)0.0437)
#define RX_INV ((REAL)0.51)
#define RY_INV ((REAL)0.51)
#define RZ_INV ((REAL)0.0039)
#define AMBIENT ((REAL)80.0)

extern "C" __global__ void hotspot_step(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x, i = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
	size_t w = j > 0 ? j - 1 : 0, e = j + 1 < N ? j + 1 : N - 1;
	size_t n = i > 0 ? i - 1 : 0, s = i + 1 < N ? i + 1 : N - 1;
	REAL t = A[i * N + j];
	REAL flow = B[i * N + j] + (A[s * N + j] + A[n * N + j] - 2 * t) * RY_INV +
		    (A[i * N + e] + A[i * N + w] - 2 * t) * RX_INV + (AMBIENT - t) * RZ_INV;

	C[i * N + j] = t + STEP_OVER_CAP * flow;
}
