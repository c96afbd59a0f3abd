// Seed 000's MyAdd_2D with its two indexes swapped: the first grid index
// walks the columns and the second the rows, so a warp's neighbours read
// neighbouring elements of one row, where MyAdd_2D's are N elements apart.
// Still 2A on even rows and A - A on odd ones: it verifies. One coalesced
// load and store per thread, and no divergence within a row. Runs like
// myadd's MyAdd_2D variant (MyAdd_2D in kernels/myadd.cu, an N x N grid).
//
// The CUDA form of ../myadd_2d_coalesced.cl, line for line: get_global_id(1)
// is blockIdx.y * blockDim.y + threadIdx.y.

// REAL follows the harness exactly as in the OpenCL form: double with
// -D WL_FP64 (which the harness passes where the device has doubles, in a CUDA
// run as in an OpenCL one), float without it.
#ifdef WL_FP64
#define REAL double
#else
#define REAL float
#endif

extern "C" __global__ void myadd_2d_coalesced(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t i = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
	size_t at = i * N + j;
	REAL a = A[at];

	C[at] = i % 2 == 0 ? a + a : a - a;
}
