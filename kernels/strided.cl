// Strided reads (seeds 003 and 004): work-item i copies a[i * stride]. With
// stride 1 neighbouring work-items read neighbouring words and a warp's loads
// coalesce into a few transactions; with stride s each transaction carries one
// useful word in s, "the effect is rather dramatic" (seed 003). Seed 004 shows
// the stride-2 case as its `noncoalesced` example: `float val = v[2*i];`.
// Effective bandwidth counts only the useful bytes: n read, n written.

// The work-group size it is launched with is declared (reqd_work_group_size),
// so the compiler knows it.
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void read_strided(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);

	out[i] = a[i * (size_t)stride];
}
