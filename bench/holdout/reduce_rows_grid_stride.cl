// A grid-stride loop over rows: the input is cut into rows of ROW4 float4s
// (16 KiB), and each work-group takes rows g, g + groups, g + 2 groups, ...
// (the grid strides by rows, not by work-items), its work-items reading
// across the row. Access: coalesced 16-byte loads, a warp's consecutive
// requests TILE_SIZE float4s apart within a row, then a jump of `groups`
// rows; one tree per group. It verifies. Runs like reduction's grid_stride
// variant (a persistent grid, n4 float4s).

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

#define ROW4 1024

__kernel __attribute__((reqd_work_group_size(TILE_SIZE, 1, 1)))
void reduce_rows_grid_stride(__global const float4 *data, __global float *partial, uint n4)
{
	__local float sums[TILE_SIZE];
	unsigned tid = get_local_id(0);
	size_t rows = ((size_t)n4 + ROW4 - 1) / ROW4;
	float4 acc = 0.0f;

	for (size_t row = get_group_id(0); row < rows; row += get_num_groups(0)) {
		for (size_t c = tid; c < ROW4; c += TILE_SIZE) {
			size_t i = row * ROW4 + c;

			if (i < n4)
				acc += data[i];
		}
	}
	sums[tid] = acc.x + acc.y + acc.z + acc.w;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		partial[get_group_id(0)] = sums[0];
}
