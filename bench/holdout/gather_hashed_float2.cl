// A random gather of 8-byte elements (complex numbers or (x, y) points read
// through a hash, as a hash-table probe of 8-byte entries does): work-item i
// reads in[h(i) mod count] as one float2, h a murmur-style hash. Access: a
// warp's 32 loads of 8 bytes in (nearly) 32 unrelated sectors anywhere in the
// input (256 MiB at the far point: nearly every one in another page); the
// 8-byte store is coalesced. Runs like copy's float2 variant; unverified.

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
void gather_hashed_float2(__global const float2 *in, __global float2 *out, uint count)
{
	uint i = (uint)get_global_id(0);

	if (i < count)
		out[i] = in[mix32(i) % count];
}
