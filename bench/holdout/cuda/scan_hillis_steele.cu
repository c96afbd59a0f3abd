// The naive Hillis-Steele scan of the CUDA samples and GPU Gems 3: an
// inclusive prefix sum of the block's TILE_SIZE values in double-buffered
// shared memory, log2(TILE_SIZE) steps, each thread adding the value
// `offset` places back. The last element of the scan is the block's sum,
// which is what a reduction writes, so it verifies. One coalesced load, then
// per step two shared reads and one write per thread and a barrier. Runs
// like reduction's sequential variant (reduction_tiled_3 in
// kernels/reduction.cu).
//
// The CUDA form of ../scan_hillis_steele.cl, line for line.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

extern "C" __global__ void scan_hillis_steele(const float *data, float *partial)
{
	__shared__ float buffers[2][TILE_SIZE];
	unsigned tid = threadIdx.x;
	int from = 0;

	buffers[0][tid] = data[blockIdx.x * (size_t)blockDim.x + threadIdx.x];
	__syncthreads();
	for (unsigned offset = 1; offset < TILE_SIZE; offset *= 2) {
		float v = buffers[from][tid];

		if (tid >= offset)
			v += buffers[from][tid - offset];
		buffers[1 - from][tid] = v;
		from = 1 - from;
		__syncthreads();
	}
	if (tid == TILE_SIZE - 1)
		partial[blockIdx.x] = buffers[from][tid];
}
