// The naive transpose turned around: work-item (x, y) writes odata[y][x] in
// order and reads idata[x][y] from a column, so the stores coalesce and the
// loads are n floats apart (the textbook alternative to the seed's naive
// kernel, whose loads coalesce and stores scatter). One element per
// work-item. Runs like transpose's naive variant (global n x n) and verifies.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_coalesced_writes(__global float *odata, __global const float *idata, int n)
{
	size_t x = get_global_id(0);
	size_t y = get_global_id(1);

	odata[y * n + x] = idata[x * n + y];
}
