// Per-block histograms written out bin-major (after the CUDA samples'
// histogram256 and Parboil's histo, whose blocks each write a sub-histogram
// for a merge pass; here bin by bin): each block counts its LOCAL_SIZE values
// (uniform in [-1, 1)) into LOCAL_SIZE shared bins with atomicAdd, and thread
// b writes bin b's count to out[b * blocks + block]. One coalesced load and
// one shared atomic per thread, then a store per thread `blocks` floats from
// its neighbour's: each warp writes one word in each of 32 lines, which the
// next 31 blocks complete. Runs like copy's float variant (copy_float in
// kernels/copy.cu); unverified.
//
// The CUDA form of ../hist_bins_bin_major.cl, line for line: atomic_inc is
// atomicAdd(&bin, 1), clamp is clampi.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define BINS LOCAL_SIZE

__device__ int clampi(int v, int lo, int hi)
{
	return min(max(v, lo), hi);
}

extern "C" __global__ void hist_bins_bin_major(const float *in, float *out, unsigned int count)
{
	__shared__ int bins[BINS];
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	unsigned b = threadIdx.x;

	bins[b] = 0;
	__syncthreads();
	if (i < count)
		atomicAdd(&bins[clampi((int)((in[i] + 1.0f) * (0.5f * BINS)), 0, BINS - 1)], 1);
	__syncthreads();
	size_t o = (size_t)b * gridDim.x + blockIdx.x;

	/* Past count only where count is not a whole number of blocks. */
	if (o < count)
		out[o] = (float)bins[b];
}
