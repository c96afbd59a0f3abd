// Per-feature sums of a block's records, a warp per feature (after the centre
// update of Rodinia's kmeans): a block's TILE_SIZE floats are TILE_SIZE /
// FIELDS records of FIELDS floats, and thread t takes feature t / RECS of
// record t % RECS, so at 256 threads each warp reads one feature of all 32
// records. Each feature is summed over the records in shared memory, then
// the features are added into the block's partial, so the sum verifies.
// Each warp's loads one 4-byte word in each of 32 sectors; the block's 8
// warps read the same 8 lines. Runs like reduction's sequential variant
// (reduction_tiled_3 in kernels/reduction.cu).
//
// The CUDA form of ../centroid_fields_by_warp.cl, line for line.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

#define FIELDS 8
#define RECS (TILE_SIZE / FIELDS)	/* records per block */

extern "C" __global__ void centroid_fields_by_warp(const float *data, float *partial)
{
	__shared__ float sums[TILE_SIZE];
	unsigned tid = threadIdx.x;
	unsigned f = tid / RECS, r = tid % RECS;
	size_t base = blockIdx.x * (size_t)TILE_SIZE;

	sums[tid] = data[base + r * FIELDS + f];
	__syncthreads();
	/* Feature f's sum over the records gathers into sums[f * RECS]. */
	for (unsigned s = RECS / 2; s > 0; s /= 2) {
		if (r < s)
			sums[tid] += sums[tid + s];
		__syncthreads();
	}
	if (tid == 0) {
		float total = 0.0f;

		for (unsigned k = 0; k < FIELDS; k++)
			total += sums[k * RECS];
		partial[blockIdx.x] = total;
	}
}
