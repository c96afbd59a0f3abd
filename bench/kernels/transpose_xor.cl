// A custom transpose for warplab (like "padded"): the tile is not padded but
// swizzled. Element (r, c) of the tile lives at tile[r][c ^ r], so the column
// read of the second phase, tile[lx][k ^ lx] over the 32 lanes lx, falls in 32
// different banks with no column of padding. TILE_DIM is a power of two (the
// catalog enforces it), so c ^ r stays inside the row.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_xor(__global float *odata, __global const float *idata, int n)
{
	__local float tile[TILE_DIM][TILE_DIM];

	int lx = get_local_id(0), ly = get_local_id(1);
	int x = get_group_id(0) * TILE_DIM + lx;
	int y = get_group_id(1) * TILE_DIM + ly;
	int index_in = x + y * n;

	x = get_group_id(1) * TILE_DIM + lx;
	y = get_group_id(0) * TILE_DIM + ly;
	int index_out = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		tile[ly + i][lx ^ (ly + i)] = idata[index_in + i * n];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index_out + i * n] = tile[lx][(ly + i) ^ lx];
}
