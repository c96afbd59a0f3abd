// A histogram-style accumulation in shared memory, after Parboil's histo and
// the CUDA samples' histogram64: each thread increments the shared bin of its
// value atomically, then the block weighs each bin by its value and adds the
// bins up. The reduction's inputs are small integers (-8 .. 8), so the
// weighted bins are exactly the block's sum and it verifies; a value past the
// bins is clamped into the end ones. One coalesced load, one shared atomic
// per thread (popular bins collide), then a 32-bin tree. Runs like
// reduction's sequential variant (reduction_tiled_3 in kernels/reduction.cu).
//
// The CUDA form of ../hist_local_bins.cl, line for line: atomic_inc on the
// __local bin is atomicAdd(&bin, 1) on the __shared__ one, clamp is clampi.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

#define BINS 32
#define ZERO_BIN 16	/* value v counts in bin v + 16 */

__device__ int clampi(int v, int lo, int hi)
{
	return min(max(v, lo), hi);
}

extern "C" __global__ void hist_local_bins(const float *data, float *partial)
{
	__shared__ int counts[BINS];
	__shared__ float weighed[BINS];
	unsigned tid = threadIdx.x;

	for (unsigned b = tid; b < BINS; b += TILE_SIZE)
		counts[b] = 0;
	__syncthreads();
	int bin = clampi((int)data[blockIdx.x * (size_t)blockDim.x + threadIdx.x] + ZERO_BIN, 0, BINS - 1);

	atomicAdd(&counts[bin], 1);
	__syncthreads();
	for (unsigned b = tid; b < BINS; b += TILE_SIZE)
		weighed[b] = (float)((int)b - ZERO_BIN) * (float)counts[b];
	__syncthreads();
	for (unsigned s = BINS / 2; s > 0; s /= 2) {
		if (tid < s)
			weighed[tid] += weighed[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partial[blockIdx.x] = weighed[0];
}
