// A random scatter of 16-byte records: thread i reads record i in order and
// writes it to out[h(i)] as one float4, h an odd multiply then an xor-shift,
// each modulo count (a permutation for a power-of-two count, the plans'
// sizes; in range otherwise). Coalesced 16-byte loads; a warp's 16-byte
// stores in 32 unrelated sectors (256 MiB at the far point), each half a
// sector. Runs like copy's float4 variant (copy_float4 in kernels/copy.cu);
// unverified.
//
// The CUDA form of ../scatter_hashed_float4.cl, line for line.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

/* A bijection on [0, count) for a power-of-two count, in range otherwise. */
__device__ unsigned int shuffle(unsigned int i, unsigned int count)
{
	unsigned int h = (i * 0x9E3779B1u) % count;

	return (h ^ (h >> 11)) % count;
}

extern "C" __global__ void scatter_hashed_float4(const float4 *in, float4 *out, unsigned int count)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < count)
		out[shuffle(i, count)] = in[i];
}
