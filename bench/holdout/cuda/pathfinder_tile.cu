// Rodinia's pathfinder within one tile, as its pyramid step works: dynamic
// programming down the rows, each cell's cost its own weight plus the least
// of the three costs above it. The block stages its tile in shared memory;
// then the first row of threads walks down the tile, one barrier per row,
// the tile's side columns acting as walls; the costs overwrite the staged
// weights and are stored back in place. Coalesced loads and stores, three
// shared reads per cell, TILE_DIM barriers per block. Runs like transpose's
// copy variant (mtran_copy in kernels/transpose.cu); unverified.
//
// The CUDA form of ../pathfinder_tile.cl, line for line: fmin is fminf.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

extern "C" __global__ void pathfinder_tile(float *odata, const float *idata, int n)
{
	__shared__ float grid[TILE_DIM][TILE_DIM + 1];
	int lx = threadIdx.x, ly = threadIdx.y;
	size_t base = (size_t)blockIdx.y * TILE_DIM * n + (size_t)blockIdx.x * TILE_DIM;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		grid[ly + i][lx] = idata[base + (size_t)(ly + i) * n + lx];
	__syncthreads();
	/* Row r's costs replace its weights once row r - 1 holds costs. */
	for (int r = 1; r < TILE_DIM; r++) {
		if (ly == 0) {
			float best = grid[r - 1][lx];

			if (lx > 0)
				best = fminf(best, grid[r - 1][lx - 1]);
			if (lx < TILE_DIM - 1)
				best = fminf(best, grid[r - 1][lx + 1]);
			grid[r][lx] += best;
		}
		__syncthreads();
	}
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[base + (size_t)(ly + i) * n + lx] = grid[ly + i][lx];
}
