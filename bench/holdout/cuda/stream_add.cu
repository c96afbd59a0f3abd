// BabelStream's Add (c = a + b): two streams read, one written, C = A + B
// over the N x N elements, one per thread. Two coalesced loads and one store
// per thread. Runs like myadd's MyAdd_2D variant (MyAdd_2D in
// kernels/myadd.cu, an N x N grid); unverified (MyAdd's check wants 2A or 0).
//
// The CUDA form of ../stream_add.cl, line for line.

// REAL follows the harness exactly as in the OpenCL form: double with
// -D WL_FP64 (which the harness passes where the device has doubles, in a CUDA
// run as in an OpenCL one), float without it.
#ifdef WL_FP64
#define REAL double
#else
#define REAL float
#endif

extern "C" __global__ void stream_add(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	size_t at = (blockIdx.y * (size_t)blockDim.y + threadIdx.y) * N + (blockIdx.x * (size_t)blockDim.x + threadIdx.x);

	C[at] = A[at] + B[at];
}
