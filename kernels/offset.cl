// Misaligned reads (seed 003, "Unaligned Memory Access"): work-item i copies
// a[i + offset], so a warp's block of loads starts off a segment boundary.
// Older GPUs split such a block into extra transactions; caches make the
// penalty small on newer ones.

// The work-group size it is launched with is declared (reqd_work_group_size),
// so the compiler knows it.
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void read_offset(__global const float *a, __global float *out, int offset)
{
	size_t i = get_global_id(0);

	out[i] = a[i + offset];
}
