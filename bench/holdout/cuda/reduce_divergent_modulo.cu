// The CUDA samples' reduction #1, interleaved addressing with a divergent
// branch: in step s only the threads whose index is a multiple of 2s add, so
// the active threads are scattered over every warp and their shared accesses
// are 2s words apart. One coalesced load per thread, then log2(TILE_SIZE)
// steps of shared reads and writes with a growing stride, a barrier each. It
// writes one partial sum per block, as reduction_tiled_3 does, so it
// verifies. Runs like reduction's sequential variant (reduction_tiled_3 in
// kernels/reduction.cu).
//
// The CUDA form of ../reduce_divergent_modulo.cl, line for line.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

extern "C" __global__ void reduce_divergent_modulo(const float *data, float *partial)
{
	__shared__ float sums[TILE_SIZE];
	unsigned tid = threadIdx.x;

	sums[tid] = data[blockIdx.x * (size_t)blockDim.x + threadIdx.x];
	__syncthreads();
	for (unsigned s = 1; s < TILE_SIZE; s *= 2) {
		if (tid % (2 * s) == 0)
			sums[tid] += sums[tid + s];	/* tid <= TILE_SIZE - 2s */
		__syncthreads();
	}
	if (tid == 0)
		partial[blockIdx.x] = sums[0];
}
