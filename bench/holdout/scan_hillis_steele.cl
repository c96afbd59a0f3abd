// After the CUDA samples' (and GPU Gems 3's) naive Hillis-Steele scan: an
// inclusive prefix sum of the group's TILE_SIZE values in double-buffered
// local memory, log2(TILE_SIZE) steps, each work-item adding the value
// `offset` places back. The scan's last element is the group's sum, which is
// what a reduction writes, so it verifies. Access: one coalesced load, then
// per step two local reads and one write per work-item, a barrier each. Runs
// like reduction's sequential variant.

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void scan_hillis_steele(__global const float *data, __global float *partial)
{
	__local float buffers[2][TILE_SIZE];
	unsigned tid = get_local_id(0);
	int from = 0;

	buffers[0][tid] = data[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned offset = 1; offset < TILE_SIZE; offset *= 2) {
		float v = buffers[from][tid];

		if (tid >= offset)
			v += buffers[from][tid - offset];
		buffers[1 - from][tid] = v;
		from = 1 - from;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == TILE_SIZE - 1)
		partial[get_group_id(0)] = buffers[from][tid];
}
