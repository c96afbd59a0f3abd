// A gather random only within a 64 KiB window that moves along the array:
// thread i reads a word of the 16384-float window holding element i, picked
// by a murmur-style hash of i; 64 neighbouring blocks share a window. A
// warp's 32 loads in (nearly) 32 unrelated sectors of the window's 2048,
// which the neighbouring blocks read too; the store is coalesced. Runs like
// copy's float variant (copy_float in kernels/copy.cu); unverified.
//
// The CUDA form of ../gather_page_64k.cl, line for line.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define WINDOW 16384	/* floats: 64 KiB */

__device__ unsigned int mix32(unsigned int x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

extern "C" __global__ void gather_page_64k(const float *in, float *out, unsigned int count)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= count)
		return;
	unsigned int base = i / WINDOW * WINDOW;
	unsigned int span = min((unsigned int)WINDOW, count - base);	/* a short last window */

	out[i] = in[base + mix32(i) % span];
}
