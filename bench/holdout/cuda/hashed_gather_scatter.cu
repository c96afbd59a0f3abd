// A gather and a scatter through one hash of the index: thread i moves element
// h(i) of in to the same place in out. h is an xor-shift then an odd multiply,
// modulo count, so no access leaves the buffers; at a power-of-two count it is
// a permutation and the result is an exact copy (it verifies). A warp's 32
// loads, and its 32 stores, each fall in (nearly) 32 different sectors. Runs
// like copy's float variant (copy_float in kernels/copy.cu).
//
// The CUDA form of ../hashed_gather_scatter.cl, line for line: the helper is
// a __device__ function, uint is unsigned int.

/* Both steps are bijections modulo a power of two. A plain modulo, as in the
 * OpenCL form, not a power-of-two test (a population count there, which
 * Oclgrind cannot run). */
__device__ unsigned int scramble(unsigned int i, unsigned int count)
{
	return ((i ^ (i >> 9)) * 0x9E3779B1u) % count;
}

extern "C" __global__ void hashed_gather_scatter(const float *in, float *out, unsigned int count)
{
	unsigned int i = (unsigned int)(blockIdx.x * (size_t)blockDim.x + threadIdx.x);

	if (i >= count)
		return;
	unsigned int j = scramble(i, count);

	out[j] = in[j];
}
