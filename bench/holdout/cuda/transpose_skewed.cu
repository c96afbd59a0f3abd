// A shared-memory transpose that rotates (skews) its tile instead of padding
// it: element (r, c) is kept at tile[r][(c + r) mod TILE_DIM], which spreads
// a tile column over every bank with no extra word per row. Coalesced global
// loads and stores; the shared writes and column reads fall in bank
// (r + c) mod 32, free of conflicts. Runs like transpose's padded variant
// (mtran_padded in kernels/transpose.cu) and verifies.
//
// The CUDA form of ../transpose_skewed.cl, line for line.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

extern "C" __global__ void transpose_skewed(float *odata, const float *idata, int n)
{
	__shared__ float tile[TILE_DIM][TILE_DIM];
	int lx = threadIdx.x, ly = threadIdx.y;
	size_t in_base = (size_t)blockIdx.y * TILE_DIM * n + (size_t)blockIdx.x * TILE_DIM;
	size_t out_base = (size_t)blockIdx.x * TILE_DIM * n + (size_t)blockIdx.y * TILE_DIM;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;

		tile[r][(lx + r) & (TILE_DIM - 1)] = idata[in_base + (size_t)r * n + lx];
	}
	__syncthreads();
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;	/* output row r is input column r */

		odata[out_base + (size_t)r * n + lx] = tile[lx][(r + lx) & (TILE_DIM - 1)];
	}
}
