// A reduction whose loads go through a hash of the index: work-item g loads
// element h(g) = ((g xor g >> 7) * 0x2C1B3C6D) mod n. For a power-of-two n
// both steps are bijections, so every element is still added once and the
// sum verifies; other n stay in bounds through the modulo. Access: a warp's
// 32 loads in (nearly) 32 scattered sectors, then the sequential tree. Runs
// like reduction's sequential variant (global n, one element per work-item).

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduce_hashed_gather(__global const float *data, __global float *partial)
{
	__local float sums[TILE_SIZE];
	unsigned tid = get_local_id(0);
	uint n = (uint)get_global_size(0);
	uint g = (uint)get_global_id(0);
	uint h = (g ^ (g >> 7)) * 0x2C1B3C6Du;

	/* A modulo, not a power-of-two test and a mask: compilers turn that
	 * test into a population count, which Oclgrind cannot trace. */
	sums[tid] = data[h % n];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		partial[get_group_id(0)] = sums[0];
}
