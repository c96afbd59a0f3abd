// A gather random over the whole input: thread i reads in[h(i) mod count],
// h the murmur-style hash gather_page_64k uses within its window. A warp's 32
// loads in (nearly) 32 unrelated sectors anywhere in the input (256 MiB at
// the far point); the store is coalesced. Runs like copy's float variant
// (copy_float in kernels/copy.cu); unverified.
//
// The CUDA form of ../gather_whole_buffer.cl, line for line.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__device__ unsigned int mix32(unsigned int x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

extern "C" __global__ void gather_whole_buffer(const float *in, float *out, unsigned int count)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < count)
		out[i] = in[mix32(i) % count];
}
