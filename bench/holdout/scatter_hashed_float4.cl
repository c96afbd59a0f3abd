// A random scatter of 16-byte records (a particle list scattered into its
// new order, or a hash-table insert of 16-byte entries): work-item i reads
// record i in order and writes it to out[h(i)] as one float4, h an odd
// multiply then an xor-shift, each taken modulo count. For a power-of-two
// count (the plans' sizes) h is a permutation, so every record is written
// once, not in place; for other counts two work-items may write one record
// (either lands). Access: coalesced 16-byte loads; a warp's 16-byte stores
// in 32 unrelated sectors (256 MiB at the far point: each in another page),
// each store half a sector. Runs like copy's float4 variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

/* A bijection on [0, count) for a power-of-two count, in range otherwise.
 * Plain modulos: a power-of-two test would become a population count,
 * which Oclgrind cannot run. */
uint shuffle(uint i, uint count)
{
	uint h = (i * 0x9E3779B1u) % count;

	return (h ^ (h >> 11)) % count;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scatter_hashed_float4(__global const float4 *in, __global float4 *out, uint count)
{
	uint i = (uint)get_global_id(0);

	if (i < count)
		out[shuffle(i, count)] = in[i];
}
