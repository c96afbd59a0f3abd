// A scatter through a hash, as a hash-table insert or a histogram writes:
// thread i reads element i in order and stores it at out[h(i)], h a multiply
// and xor-shift hash modulo count. The loads coalesce; a warp's stores land
// in (nearly) 32 sectors. At a power-of-two count (the plans') h is a
// permutation, so each element is written once but somewhere else, and the
// copy check marks it unverified; at other counts h stays in range but two
// threads may store to one element. Runs like copy's float variant
// (copy_float in kernels/copy.cu).
//
// The CUDA form of ../hashed_scatter.cl, line for line.

/* An odd multiply, then an xor-shift of the low bits: a bijection on
 * [0, count) when count is a power of two, in range otherwise. */
__device__ unsigned int spread(unsigned int i, unsigned int count)
{
	unsigned int h = (i * 0x85EBCA6Bu) % count;

	return (h ^ (h >> 5)) % count;
}

extern "C" __global__ void hashed_scatter(const float *in, float *out, unsigned int count)
{
	unsigned int i = (unsigned int)(blockIdx.x * (size_t)blockDim.x + threadIdx.x);

	if (i < count)
		out[spread(i, count)] = in[i];
}
