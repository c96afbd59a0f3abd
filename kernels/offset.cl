// Misaligned reads (seed 003, "Unaligned Memory Access"): work-item i copies
// a[i + offset], so a warp's block of loads starts off a segment boundary.
// Older GPUs split such a block into extra transactions; caches make the
// penalty small on newer ones.

__kernel void read_offset(__global const float *a, __global float *out, int offset)
{
	size_t i = get_global_id(0);

	out[i] = a[i + offset];
}
