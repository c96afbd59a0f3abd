// BabelStream's nstream (a += b + scalar * c: three streams read, one
// written). The harness's C is write-only, so the third stream read is the
// other half of A rather than C: C = A + B + 0.4 A', with A' running
// N * N / 2 elements ahead (wrapped around). Three coalesced loads and one
// store per thread. Runs like myadd's MyAdd_2D variant (MyAdd_2D in
// kernels/myadd.cu, an N x N grid); unverified.
//
// The CUDA form of ../stream_nstream.cl, line for line.

// REAL follows the harness exactly as in the OpenCL form: double with
// -D WL_FP64 (which the harness passes where the device has doubles, in a CUDA
// run as in an OpenCL one), float without it.
#ifdef WL_FP64
#define REAL double
#else
#define REAL float
#endif

extern "C" __global__ void stream_nstream(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	size_t total = (size_t)N * N;
	size_t at = (blockIdx.y * (size_t)blockDim.y + threadIdx.y) * N + (blockIdx.x * (size_t)blockDim.x + threadIdx.x);
	size_t ahead = at + total / 2;

	ahead = ahead >= total ? ahead - total : ahead;
	C[at] = A[at] + B[at] + (REAL)0.4 * A[ahead];
}
