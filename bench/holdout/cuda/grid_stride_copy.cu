// A grid-stride copy loop, the way BabelStream and the CUDA samples write
// their loops, with only one block in eight of the launch doing the work:
// each working thread copies every (working threads)-th element, starting
// at its own index. A warp reads and writes unit-stride runs, and each thread
// comes back to the array one stride further on. It copies exactly, so copy's
// check passes. Runs like copy's float variant (copy_float in
// kernels/copy.cu).
//
// The CUDA form of ../grid_stride_copy.cl, line for line: get_num_groups(0)
// is gridDim.x, get_group_id(0) blockIdx.x.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define ACTIVE_SHARE 8	/* one block in eight walks the array */

extern "C" __global__ void grid_stride_copy(const float *in, float *out, unsigned int count)
{
	size_t active = (gridDim.x + ACTIVE_SHARE - 1) / ACTIVE_SHARE;

	if (blockIdx.x >= active)
		return;
	size_t stride = active * LOCAL_SIZE;

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += stride)
		out[i] = in[i];
}
