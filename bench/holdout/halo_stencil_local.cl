// After the CUDA samples' convolutionSeparable (its row pass): a work-group
// stages its LOCAL_SIZE floats plus a halo of RADIUS on each side in local
// memory, then each work-item sums 2 * RADIUS + 1 weighted neighbours from
// there. Access: one coalesced global read per staged float (the halo read
// twice by neighbouring groups), 2 * RADIUS + 1 local reads per output, one
// write. Indexes past either end are clamped. Runs like copy's float variant;
// unverified (it filters).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define RADIUS 8	/* the sample's KERNEL_RADIUS */
#define SPAN (LOCAL_SIZE + 2 * RADIUS)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void halo_stencil_local(__global const float *in, __global float *out, uint count)
{
	__local float row[SPAN];
	size_t lid = get_local_id(0);
	long first = (long)get_group_id(0) * LOCAL_SIZE - RADIUS;

	/* Every work-item stages, even past count, so all reach the barrier. */
	for (size_t s = lid; s < SPAN; s += LOCAL_SIZE) {
		long g = first + (long)s;

		g = g < 0 ? 0 : (g >= (long)count ? (long)count - 1 : g);
		row[s] = in[g];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	size_t i = get_global_id(0);

	if (i >= count)
		return;
	float acc = 0.0f;

	for (int k = -RADIUS; k <= RADIUS; k++)
		acc += row[lid + RADIUS + k] * (1.0f / (1 + k * k));
	out[i] = acc;
}
