// A random gather of 8-byte elements: thread i reads in[h(i) mod count] as
// one float2, h a murmur-style hash. A warp's 32 loads of 8 bytes in
// (nearly) 32 unrelated sectors anywhere in the input (256 MiB at the far
// point); the 8-byte store is coalesced. Runs like copy's float2 variant
// (copy_float2 in kernels/copy.cu); unverified.
//
// The CUDA form of ../gather_hashed_float2.cl, line for line.

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

extern "C" __global__ void gather_hashed_float2(const float2 *in, float2 *out, unsigned int count)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < count)
		out[i] = in[mix32(i) % count];
}
