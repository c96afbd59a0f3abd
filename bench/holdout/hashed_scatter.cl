// A scatter through a hash (as a histogram or a hash-table insert writes):
// work-item i reads element i in order and writes it to out[h(i)], h a
// multiply-xorshift hash taken modulo count. Access: coalesced loads, stores
// spread over (nearly) 32 sectors per warp. For a power-of-two count (the
// plans' sizes) h is a permutation, so every element is written once, but
// not in place: the copy check marks it unverified. For other counts h
// stays in range but two work-items may store to one element (either value
// lands). Runs like copy's float variant.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

/* An odd multiply, then an xor-shift within the low bits: a bijection on
 * [0, count) for a power-of-two count (the last modulo then changes
 * nothing), an in-range hash otherwise. Plain modulos, not a power-of-two
 * test, which compilers turn into a population count Oclgrind cannot run. */
uint spread(uint i, uint count)
{
	uint h = (i * 0x85EBCA6Bu) % count;

	return (h ^ (h >> 5)) % count;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void hashed_scatter(__global const float *in, __global float *out, uint count)
{
	uint i = (uint)get_global_id(0);

	if (i < count)
		out[spread(i, count)] = in[i];
}
