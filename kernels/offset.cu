// Misaligned reads in CUDA (seed 003, "Unaligned Memory Access"), the twin of
// offset.cl: thread i copies a[i + offset], so a warp's block of loads starts
// off a segment boundary. LOCAL_SIZE, the block size, is declared to the
// compiler (__launch_bounds__).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
read_offset(const float *a, float *out, int offset)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	out[i] = a[i + offset];
}
