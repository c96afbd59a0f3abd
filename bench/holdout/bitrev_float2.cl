// The bit-reversal reorder of a radix-2 FFT (the scramble before the
// butterflies in Numerical Recipes' four1 and SHOC's FFT), on complex numbers
// as float2: element i moves to the index whose low `bits` bits are i's
// reversed, 2^bits the largest power of two in count (the elements past it
// stay put). The reversal is Knuth's delta swaps on fixed masks, each an xor
// of the bits to exchange: clang makes llvm.bitreverse of the usual
// shift-and-mask form, and Oclgrind cannot run that. Access: coalesced
// 8-byte loads; a warp's 32 lanes differ in their low five bits, so their
// 8-byte stores land in the 32 slices of 2^bits / 32 elements, one in each:
// 32 sectors, each in another page at the far point (256 MiB of float2), and
// a sector's other three elements come from work-items 2^bits / 4 and more
// away. Runs
// like copy's float2 variant; unverified (it moves every element, not in
// place).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

/* Bits 0..31 of x reversed: swap neighbouring bits, pairs, nibbles, bytes,
 * then halves, each swap t = (x >> s ^ x) & m; x ^= t | t << s. */
uint reverse32(uint x)
{
	uint t;

	t = ((x >> 1) ^ x) & 0x55555555u;
	x ^= t | (t << 1);
	t = ((x >> 2) ^ x) & 0x33333333u;
	x ^= t | (t << 2);
	t = ((x >> 4) ^ x) & 0x0F0F0F0Fu;
	x ^= t | (t << 4);
	t = ((x >> 8) ^ x) & 0x00FF00FFu;
	x ^= t | (t << 8);
	t = ((x >> 16) ^ x) & 0x0000FFFFu;
	return x ^ (t | (t << 16));
}

/* floor(log2(x)) for x >= 1, in five fixed steps (no loop, no clz). */
uint floor_log2(uint x)
{
	uint b = 0;

	if (x >= 1u << 16) { x >>= 16; b += 16; }
	if (x >= 1u << 8) { x >>= 8; b += 8; }
	if (x >= 1u << 4) { x >>= 4; b += 4; }
	if (x >= 1u << 2) { x >>= 2; b += 2; }
	if (x >= 1u << 1) b += 1;
	return b;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void bitrev_float2(__global const float2 *in, __global float2 *out, uint count)
{
	uint i = (uint)get_global_id(0);

	if (i >= count)
		return;
	uint bits = floor_log2(count);	/* count >= 1: n >= 1024 */
	uint j = i;

	if (bits > 0 && i < (1u << bits))
		j = reverse32(i) >> (32 - bits);
	out[j] = in[i];
}
