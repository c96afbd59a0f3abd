// A local-memory transpose with a half-height tile: the group's TILE_DIM x
// TILE_DIM tile goes through a [TILE_DIM / 2][TILE_DIM + 1] buffer in two
// passes of TILE_DIM / 2 input rows each (half the local memory, one more
// barrier pair). Each pass writes half of every output row: TILE_DIM / 2
// consecutive floats. Access: coalesced row loads, half-row stores, and
// column reads of the padded buffer in which a warp reads two neighbouring
// half-columns: their banks overlap, a 2-way conflict where the full tile's
// single column has none. Runs like transpose's padded variant and
// verifies.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define HALF (TILE_DIM / 2)

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_half_tile(__global float *odata, __global const float *idata, int n)
{
	__local float half_tile[HALF][TILE_DIM + 1];
	int lx = get_local_id(0), ly = get_local_id(1);
	int t = ly * TILE_DIM + lx;
	size_t in_base = (size_t)get_group_id(1) * TILE_DIM * n + get_group_id(0) * TILE_DIM;
	size_t out_base = (size_t)get_group_id(0) * TILE_DIM * n + get_group_id(1) * TILE_DIM;

	for (int h = 0; h < 2; h++) {
		for (int r = ly; r < HALF; r += BLOCK_ROWS)
			half_tile[r][lx] = idata[in_base + (size_t)(h * HALF + r) * n + lx];
		barrier(CLK_LOCAL_MEM_FENCE);
		/* Output row c, columns h * HALF + j, is input column c, rows h * HALF + j. */
		for (int q = t; q < TILE_DIM * HALF; q += TILE_DIM * BLOCK_ROWS) {
			int c = q / HALF, j = q % HALF;

			odata[out_base + (size_t)c * n + h * HALF + j] = half_tile[j][c];
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}
