// A gather and a scatter through the same hash of the index: work-item i
// moves element h(i) from in to out. h is an xor-shift followed by an odd
// multiply, taken modulo count, so every access stays inside the buffers;
// for a power-of-two count it is a permutation and the copy verifies. Access:
// a warp's 32 loads and 32 stores each land in (nearly) 32 different
// sectors. Runs like copy's float variant.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

/* Both steps are bijections modulo a power of two: the xor-shift keeps a
 * value below 2^k below it, the odd multiply is invertible modulo 2^k. A
 * plain modulo, not a power-of-two test: compilers turn that test into a
 * population count, which Oclgrind (the runner's tracer) cannot run. */
uint scramble(uint i, uint count)
{
	return ((i ^ (i >> 9)) * 0x9E3779B1u) % count;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void hashed_gather_scatter(__global const float *in, __global float *out, uint count)
{
	uint i = (uint)get_global_id(0);

	if (i >= count)
		return;
	uint j = scramble(i, count);

	out[j] = in[j];
}
