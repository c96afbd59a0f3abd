// Seed 000's MyAdd (one thread per row, looping over the columns) with its
// even/odd branch turned into a select, so every thread of a warp runs the
// same instructions. Rows still alternate 2A and A - A, so it verifies. Each
// thread walks its own row: neighbours are N elements apart, one useful
// element per request and thread. Runs like myadd's MyAdd variant (MyAdd in
// kernels/myadd.cu: a grid of N threads in blocks of the harness's choosing).
//
// The CUDA form of ../myadd_select_rows.cl, line for line.

// REAL follows the harness exactly as in the OpenCL form: double with
// -D WL_FP64 (which the harness passes where the device has doubles, in a CUDA
// run as in an OpenCL one), float without it.
#ifdef WL_FP64
#define REAL double
#else
#define REAL float
#endif

extern "C" __global__ void myadd_select_rows(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= N)
		return;
	size_t row = (size_t)i * N;
	int odd = i & 1;

	for (unsigned int j = 0; j < N; j++) {
		REAL a = A[row + j];

		C[row + j] = odd ? a - a : a + a;
	}
}
