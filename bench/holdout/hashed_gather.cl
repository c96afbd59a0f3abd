// A gather through a hash of the index (a hash-table probe, or a random
// index array without the array): work-item i reads a[h(i) mod (n * stride)],
// h a 32-bit murmur-style finaliser of i. Access: each warp's 32 loads land
// in 32 unrelated sectors anywhere in the input; one coalesced store. Runs
// like strided's stride variant; unverified.

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
void hashed_gather(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	ulong len = (ulong)get_global_size(0) * (ulong)stride;	/* a's floats */

	out[i] = a[(ulong)mix32((uint)i) % len];
}
