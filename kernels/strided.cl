// Strided reads (seeds 003 and 004): work-item i copies a[i * stride]. With
// stride 1 neighbouring work-items read neighbouring words and a warp's loads
// coalesce into a few transactions; with stride s each transaction carries one
// useful word in s, "the effect is rather dramatic" (seed 003). Seed 004 shows
// the stride-2 case as its `noncoalesced` example: `float val = v[2*i];`.
// Effective bandwidth counts only the useful bytes: n read, n written.

__kernel void read_strided(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);

	out[i] = a[i * (size_t)stride];
}
