// A grid-stride reduction that visits its float4s in a shuffled order (a
// random-access sum, as the reads of GUPS or of a gather through a
// permutation make): the persistent grid's work-items take j = g, g + grid,
// ... as reduction_grid_stride does, but load data[h(j)], h an odd multiply
// then an xor-shift modulo n4. For a power-of-two n4 (the plans' sizes) h
// is a permutation, so every float4 is added once and the sum verifies;
// other n4 stay in bounds. Access: a warp's 32 loads of 16 bytes in 32
// unrelated sectors anywhere in the input (256 MiB at the far point, each in
// another page), half of each sector used; one tree per group. Runs like
// reduction's grid_stride variant.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

/* A bijection on [0, n4) for a power-of-two n4; plain modulos, not a
 * power-of-two test (a population count, which Oclgrind cannot run). */
uint shuffle(uint j, uint n4)
{
	uint h = (j * 0x2545F491u) % n4;

	return (h ^ (h >> 9)) % n4;
}

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduce_gather_float4(__global const float4 *data, __global float *partial, uint n4)
{
	__local float sums[TILE_SIZE];
	unsigned tid = get_local_id(0);
	float4 acc = 0.0f;

	for (size_t j = get_global_id(0); j < n4; j += get_global_size(0))
		acc += data[shuffle((uint)j, n4)];
	sums[tid] = acc.x + acc.y + acc.z + acc.w;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		partial[get_group_id(0)] = sums[0];
}
