// Strided reads in CUDA (seeds 003 and 004), the twin of strided.cl: thread i
// copies a[i * stride]; seed 004's `noncoalesced` example is stride 2,
// `float val = v[2*i];`. LOCAL_SIZE, the block size, is declared to the
// compiler (__launch_bounds__).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
read_strided(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	out[i] = a[i * (size_t)stride];
}
