// Seed 000's MyAdd_col turned to walk a column per thread: thread j owns
// column j and loops down the rows, writing 2A on even columns and A - A on
// odd ones (MyAdd_col's result), so it verifies. At each step a warp reads and
// writes neighbouring elements of one row (coalesced), each thread moving N
// elements per step; even and odd threads diverge. Runs like myadd's
// MyAdd_col variant (MyAdd_col in kernels/myadd.cu: a grid of N threads,
// output checked by columns).
//
// The CUDA form of ../myadd_col_walk.cl, line for line.

// REAL follows the harness exactly as in the OpenCL form: double with
// -D WL_FP64 (which the harness passes where the device has doubles, in a CUDA
// run as in an OpenCL one), float without it.
#ifdef WL_FP64
#define REAL double
#else
#define REAL float
#endif

extern "C" __global__ void myadd_col_walk(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	unsigned int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j >= N)
		return;
	for (unsigned int i = 0; i < N; i++) {
		size_t at = (size_t)i * N + j;

		if (j % 2 == 0)
			C[at] = A[at] + A[at];
		else
			C[at] = A[at] - A[at];
	}
}
