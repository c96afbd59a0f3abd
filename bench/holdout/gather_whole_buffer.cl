// A gather random over the whole input (an index array spread over all of
// memory, as a hash-table probe or an unsorted neighbour list reads): work-
// item i reads in[h(i) mod count], h the murmur-style hash that
// gather_page_64k uses within its window. Access: a warp's 32 loads in
// (nearly) 32 unrelated sectors anywhere in the input, 256 MiB at the far
// point, so nearly every one in another page; the store is coalesced. Runs
// like copy's float variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

uint mix32(uint x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void gather_whole_buffer(__global const float *in, __global float *out, uint count)
{
	uint i = (uint)get_global_id(0);

	if (i < count)
		out[i] = in[mix32(i) % count];
}
