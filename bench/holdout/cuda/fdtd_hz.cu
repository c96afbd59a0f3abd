// The third kernel of PolyBench/GPU's fdtd-2d (the magnetic field from the two
// electric ones): hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j] + ey[i+1][j] -
// ey[i][j]), here with A as ex, B as ey (left unfilled by the harness) and C
// the new hz; the last row and column clamp their +1 neighbour. Two loads of
// A in one row, two of B in two rows, one store, one element per thread. Runs
// like myadd's MyAdd_2D variant (MyAdd_2D in kernels/myadd.cu, an N x N
// grid); unverified.
//
// The CUDA form of ../fdtd_hz.cl, line for line.

// REAL follows the harness exactly as in the OpenCL form: double with
// -D WL_FP64 (which the harness passes where the device has doubles, in a CUDA
// run as in an OpenCL one), float without it.
#ifdef WL_FP64
#define REAL double
#else
#define REAL float
#endif

extern "C" __global__ void fdtd_hz(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x, i = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
	size_t jr = j + 1 < N ? j + 1 : j, id = i + 1 < N ? i + 1 : i;

	C[i * N + j] = (REAL)-0.7 * (A[i * N + jr] - A[i * N + j] + B[id * N + j] - B[i * N + j]);
}
