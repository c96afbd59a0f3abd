// A textbook grid-stride loop (as BabelStream and the CUDA samples write
// their loops): only the first eighth of the launched work-groups work, each
// work-item copying every (active items)-th element. Access: unit stride
// within a warp, each work-item revisiting the array every `stride` floats.
// Runs like copy's float variant and copies exactly, so it verifies.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define ACTIVE_SHARE 8	/* one work-group in eight walks the array */

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void grid_stride_copy(__global const float *in, __global float *out, uint count)
{
	size_t active = (get_num_groups(0) + ACTIVE_SHARE - 1) / ACTIVE_SHARE;

	if (get_group_id(0) >= active)
		return;
	size_t stride = active * LOCAL_SIZE;

	for (size_t i = get_global_id(0); i < count; i += stride)
		out[i] = in[i];
}
