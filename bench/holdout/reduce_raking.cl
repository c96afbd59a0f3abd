// A raking reduction in local memory (as CUB's and the CUDA reduction
// literature's raking variants do): after the load, 32 raking work-items each
// add a contiguous segment of TILE_SIZE / 32 values serially, then a
// 32-value tree finishes. OpenCL does not promise that a warp runs in
// lockstep, so the tree keeps a barrier per step. Access: one coalesced load,
// then serial local reads TILE_SIZE / 32 words apart across the rakers (a
// bank conflict of that degree), five tree steps. It verifies. Runs like
// reduction's sequential variant.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

#if TILE_SIZE >= 32
#define RAKERS 32
#else
#define RAKERS TILE_SIZE
#endif
#define SEGMENT (TILE_SIZE / RAKERS)

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduce_raking(__global const float *data, __global float *partial)
{
	__local float values[TILE_SIZE];
	__local float raked[RAKERS];
	unsigned tid = get_local_id(0);

	values[tid] = data[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (tid < RAKERS) {
		float sum = 0.0f;

		for (unsigned k = 0; k < SEGMENT; k++)
			sum += values[tid * SEGMENT + k];
		raked[tid] = sum;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = RAKERS / 2; s > 0; s /= 2) {
		if (tid < s)
			raked[tid] += raked[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		partial[get_group_id(0)] = raked[0];
}
