// A gather random only within a 4 KiB page that moves with the block: thread
// i reads a word of the 1024-float page holding a[i * stride], picked by
// hashed_gather's murmur-style hash of i; at stride 4 and 256 threads the
// page is the block's own 4 KiB. A warp's 32 loads in (nearly) 32 unrelated
// sectors of a page that the block's other warps read too (256 loads on 128
// sectors); the store is coalesced. Runs like strided's stride variant
// (read_strided in kernels/strided.cu); unverified.
//
// The CUDA form of ../gather_page_4k.cl, line for line: ulong is unsigned
// long long.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define PAGE 1024	/* floats: 4 KiB */

__device__ unsigned int mix32(unsigned int x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

extern "C" __global__ void gather_page_4k(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	/* a's floats */
	unsigned long long len = (unsigned long long)((size_t)gridDim.x * blockDim.x) * (unsigned long long)stride;
	unsigned long long base = (unsigned long long)i * (unsigned long long)stride / PAGE * PAGE;
	unsigned long long span = min((unsigned long long)PAGE, len - base);	/* a short last page */

	out[i] = a[base + (unsigned long long)mix32((unsigned int)i) % span];
}
