// A custom transpose for warplab (like "padded"): the seed's padded tile with
// two columns of padding instead of one. A column of tile[T][T + 2] has a
// stride of 34 words, so its 32 elements fall in only 16 banks: a 2-way
// conflict. Padding has to be odd to spread a column over every bank.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_pad2(__global float *odata, __global const float *idata, int n)
{
	__local float tile[TILE_DIM][TILE_DIM + 2];

	int x = get_group_id(0) * TILE_DIM + get_local_id(0);
	int y = get_group_id(1) * TILE_DIM + get_local_id(1);
	int index_in = x + y * n;

	x = get_group_id(1) * TILE_DIM + get_local_id(0);
	y = get_group_id(0) * TILE_DIM + get_local_id(1);
	int index_out = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		tile[get_local_id(1) + i][get_local_id(0)] = idata[index_in + i * n];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index_out + i * n] = tile[get_local_id(0)][get_local_id(1) + i];
}
