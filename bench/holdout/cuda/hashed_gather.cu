// A gather through a hash of the index, like a hash-table probe or an index
// array without the array: thread i reads a[h(i) mod (n * stride)], h a
// murmur-style 32-bit finaliser. A warp's 32 loads fall in 32 unrelated
// sectors anywhere in the input; the store is coalesced. Runs like strided's
// stride variant (read_strided in kernels/strided.cu); unverified.
//
// The CUDA form of ../hashed_gather.cl, line for line: ulong is unsigned long
// long.

__device__ unsigned int mix32(unsigned int x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

extern "C" __global__ void hashed_gather(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	/* a's floats */
	unsigned long long len = (unsigned long long)((size_t)gridDim.x * blockDim.x) * (unsigned long long)stride;

	out[i] = a[(unsigned long long)mix32((unsigned int)i) % len];
}
