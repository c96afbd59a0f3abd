// A raking reduction in shared memory, as CUB and the reduction literature
// do it: after the load, 32 raking threads each add a contiguous segment of
// TILE_SIZE / 32 values one after the other, and a 32-value tree finishes.
// The OpenCL form cannot count on lockstep warps, so its tree has a barrier
// per step, and so has this one. One coalesced load, then serial shared
// reads TILE_SIZE / 32 words apart across the rakers (a bank conflict of that
// degree), then five tree steps. It verifies. Runs like reduction's
// sequential variant (reduction_tiled_3 in kernels/reduction.cu).
//
// The CUDA form of ../reduce_raking.cl, line for line.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

#if TILE_SIZE >= 32
#define RAKERS 32
#else
#define RAKERS TILE_SIZE
#endif
#define SEGMENT (TILE_SIZE / RAKERS)

extern "C" __global__ void reduce_raking(const float *data, float *partial)
{
	__shared__ float values[TILE_SIZE];
	__shared__ float raked[RAKERS];
	unsigned tid = threadIdx.x;

	values[tid] = data[blockIdx.x * (size_t)blockDim.x + threadIdx.x];
	__syncthreads();
	if (tid < RAKERS) {
		float sum = 0.0f;

		for (unsigned k = 0; k < SEGMENT; k++)
			sum += values[tid * SEGMENT + k];
		raked[tid] = sum;
	}
	__syncthreads();
	for (unsigned s = RAKERS / 2; s > 0; s /= 2) {
		if (tid < s)
			raked[tid] += raked[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partial[blockIdx.x] = raked[0];
}
