// Dependent random loads, each address made from the value the previous load
// returned (pointer chasing, the "pointer" a hash of the position and the
// float found there, since the strided harness fills a with random floats):
// thread i starts at a hash of i and takes STEPS steps, j = h(j xor bits of
// a[j]) mod (n * stride), writing the last value read. STEPS 4-byte loads per
// thread, each in an unrelated sector anywhere in a (4 MiB cached, 256 MiB
// far), none issued before the one before it returns; one coalesced store.
// Runs like strided's stride variant (read_strided in kernels/strided.cu);
// unverified.
//
// The CUDA form of ../chase_value_chain.cl, line for line: as_uint is
// __float_as_uint, ulong unsigned long long.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define STEPS 16

__device__ unsigned int mix32(unsigned int x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

extern "C" __global__ void chase_value_chain(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	/* a's floats */
	unsigned long long len = (unsigned long long)((size_t)gridDim.x * blockDim.x) * (unsigned long long)stride;
	unsigned long long j = (unsigned long long)mix32((unsigned int)i) % len;
	float v = 0.0f;

	for (int s = 0; s < STEPS; s++) {
		v = a[j];
		j = (unsigned long long)mix32((unsigned int)j ^ __float_as_uint(v)) % len;
	}
	out[i] = v;
}
