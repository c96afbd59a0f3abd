// After the CUDA samples' reduction #1 (interleaved addressing with a
// divergent branch): in step s only work-items whose index is a multiple of
// 2s add, so the active ones are scattered over every warp and the local
// accesses are 2s words apart. Access: one coalesced load per work-item,
// then log2(TILE_SIZE) steps of local reads and writes with growing stride,
// a barrier each. One partial sum per group, as reduction_tiled_3 writes;
// it verifies. Runs like reduction's sequential variant.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduce_divergent_modulo(__global const float *data, __global float *partial)
{
	__local float sums[TILE_SIZE];
	unsigned tid = get_local_id(0);

	sums[tid] = data[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = 1; s < TILE_SIZE; s *= 2) {
		if (tid % (2 * s) == 0)
			sums[tid] += sums[tid + s];	/* tid <= TILE_SIZE - 2s */
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		partial[get_group_id(0)] = sums[0];
}
