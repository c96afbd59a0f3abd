// A reduction that loads through a hash of the index: thread g loads element
// h(g) = ((g xor g >> 7) * 0x2C1B3C6D) mod n. At a power-of-two n both steps
// are bijections, so every element is still added exactly once and the sum
// verifies; at other n the modulo keeps it in bounds. A warp's 32 loads fall
// in (nearly) 32 scattered sectors, then the sequential tree. Runs like
// reduction's sequential variant (reduction_tiled_3 in kernels/reduction.cu:
// a grid of n threads, one element each).
//
// The CUDA form of ../reduce_hashed_gather.cl, line for line:
// get_global_size(0) is gridDim.x * blockDim.x.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

extern "C" __global__ void reduce_hashed_gather(const float *data, float *partial)
{
	__shared__ float sums[TILE_SIZE];
	unsigned tid = threadIdx.x;
	unsigned int n = gridDim.x * blockDim.x;
	unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int h = (g ^ (g >> 7)) * 0x2C1B3C6Du;

	/* A modulo, not a power-of-two test and a mask, as in the OpenCL form
	 * (where that test becomes a population count Oclgrind cannot trace). */
	sums[tid] = data[h % n];
	__syncthreads();
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partial[blockIdx.x] = sums[0];
}
