// Pointer chasing through a random permutation, against the same number of
// random loads that depend on nothing (after the chains of lmbench's
// lat_mem_rd and the GPU latency probes of Wong et al. and Jia et al., run
// by many work-items at once): next holds a random permutation of 0 .. n - 1
// and the launch is n / STEPS work-items.
//
// chase_perm: work-item i starts at element i * STEPS and follows next[]
// STEPS times, each load's address the value the previous load returned (a
// permutation's paths never merge, so the chains stay apart), then writes
// where it ended. Access: STEPS dependent 4-byte loads per work-item, each in
// an unrelated sector anywhere in next (4 MiB at the cached point, 256 MiB at
// the far one); one coalesced store.
//
// gather_perm: the same STEPS loads per work-item, from positions hashed
// from (i, step) instead, so all of them may be in flight at once; it writes
// the xor of what it read. Access: as chase_perm's, but independent.
//
// An experiment of its own (docs/own-experiments.md): no built-in variant
// takes an index buffer. Neither kernel computes the other's result, so the
// check is "none".

#define STEPS 16

uint mix32(uint x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

__kernel void chase_perm(__global const uint *next, __global uint *out, uint n)
{
	uint i = (uint)get_global_id(0);
	uint p = i * STEPS;

	if (p >= n)
		return;
	for (int s = 0; s < STEPS; s++)
		p = next[p];
	out[i] = p;
}

__kernel void gather_perm(__global const uint *next, __global uint *out, uint n)
{
	uint i = (uint)get_global_id(0);
	uint acc = 0;

	if (i * STEPS >= n)
		return;
	for (int s = 0; s < STEPS; s++)
		acc ^= next[mix32(i * STEPS + s) % n];
	out[i] = acc;
}
