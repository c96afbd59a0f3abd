// PolyBench/GPU's jacobi-2d in its own precision (double): C[i][j] =
// 0.2 (A[i][j] + A[i][j-1] + A[i][j+1] + A[i-1][j] + A[i+1][j]), one element
// per thread, edges clamped. Five 8-byte loads from three rows (a warp's
// neighbours share their lines) and one coalesced store. Runs like myadd's
// MyAdd_2D variant (MyAdd_2D in kernels/myadd.cu, an N x N grid, the first
// index along a row); unverified.
//
// The CUDA form of ../jacobi2d_double.cl, line for line.

// REAL follows the harness exactly as in the OpenCL form: double with
// -D WL_FP64 (which the harness passes where the device has doubles, in a CUDA
// run as in an OpenCL one), float without it.
#ifdef WL_FP64
#define REAL double
#else
#define REAL float
#endif

extern "C" __global__ void jacobi2d_double(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x, i = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
	size_t jl = j > 0 ? j - 1 : 0, jr = j + 1 < N ? j + 1 : N - 1;
	size_t iu = i > 0 ? i - 1 : 0, id = i + 1 < N ? i + 1 : N - 1;

	C[i * N + j] = (REAL)0.2 * (A[i * N + j] + A[i * N + jl] + A[i * N + jr] +
				    A[iu * N + j] + A[id * N + j]);
}
