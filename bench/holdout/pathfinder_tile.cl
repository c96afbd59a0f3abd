// After Rodinia's pathfinder (dynamic programming down a grid's rows: each
// cell's cost is its own weight plus the least of the three costs above it),
// within a tile as pathfinder's pyramid step does: the group stages its tile
// in local memory, then the first row of work-items walks the tile's rows,
// one barrier per row, with the tile's side columns as walls; the costs
// overwrite the staged tile and are stored in place. Access: coalesced loads
// and stores, three local reads per cell, TILE_DIM barriers per group. Runs
// like transpose's copy variant; unverified.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void pathfinder_tile(__global float *odata, __global const float *idata, int n)
{
	__local float grid[TILE_DIM][TILE_DIM + 1];
	int lx = get_local_id(0), ly = get_local_id(1);
	size_t base = (size_t)get_group_id(1) * TILE_DIM * n + get_group_id(0) * TILE_DIM;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		grid[ly + i][lx] = idata[base + (size_t)(ly + i) * n + lx];
	barrier(CLK_LOCAL_MEM_FENCE);
	/* Row r's costs replace its weights once row r - 1 holds costs. */
	for (int r = 1; r < TILE_DIM; r++) {
		if (ly == 0) {
			float best = grid[r - 1][lx];

			if (lx > 0)
				best = fmin(best, grid[r - 1][lx - 1]);
			if (lx < TILE_DIM - 1)
				best = fmin(best, grid[r - 1][lx + 1]);
			grid[r][lx] += best;
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[base + (size_t)(ly + i) * n + lx] = grid[ly + i][lx];
}
