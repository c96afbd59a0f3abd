// Dependent random loads, each load's address made from the value the
// previous one returned (pointer chasing, as lmbench's lat_mem_rd and the GPU
// latency probes of Wong et al. walk a chain; here the "pointer" is a hash of
// the position and the float found there, since the strided harness fills a
// with random floats rather than a permutation): work-item i starts at a
// hash of i and takes STEPS steps, j = h(j xor bits of a[j]) mod (n *
// stride), writing the last value it read. Access: STEPS 4-byte loads per
// work-item, each in an unrelated sector anywhere in a (4 MiB at the cached
// point, 256 MiB at the far one) and none issued before the one before it
// returns; one coalesced store. Runs like strided's stride variant;
// unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define STEPS 16

uint mix32(uint x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void chase_value_chain(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	ulong len = (ulong)get_global_size(0) * (ulong)stride;	/* a's floats */
	ulong j = (ulong)mix32((uint)i) % len;
	float v = 0.0f;

	for (int s = 0; s < STEPS; s++) {
		v = a[j];
		j = (ulong)mix32((uint)j ^ as_uint(v)) % len;
	}
	out[i] = v;
}
