// A shared-memory transpose whose threads each write a short run of one
// output row (after the CUDA samples' transpose, with the write-back turned):
// the block's tile goes into the padded shared tile column-wise, and thread
// (x, y) then writes words y * RUN .. y * RUN + RUN - 1 of the tile's output
// row x, RUN = TILE_DIM / BLOCK_ROWS (four scalar stores at tile 32, rows 8:
// a float4's worth a word at a time). Coalesced row loads; column stores
// into the padded tile and column reads out of it (a stride of TILE_DIM + 1
// words, no bank conflict); strided global stores, each warp's store one
// 4-byte word in each of 32 output rows, which the block's warps fill between
// them over their RUN stores. Runs like transpose's padded variant
// (mtran_padded in kernels/transpose.cu) and verifies.
//
// The CUDA form of ../transpose_short_row_stores.cl, line for line.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define RUN (TILE_DIM / BLOCK_ROWS)	/* words of an output row per thread */

extern "C" __global__ void transpose_short_row_stores(float *odata, const float *idata, int n)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];	/* tile[c][r] is input (r, c) */
	int lx = threadIdx.x, ly = threadIdx.y;
	size_t in_base = (size_t)blockIdx.y * TILE_DIM * n + (size_t)blockIdx.x * TILE_DIM;
	size_t out_base = (size_t)blockIdx.x * TILE_DIM * n + (size_t)blockIdx.y * TILE_DIM;

	for (int r = ly; r < TILE_DIM; r += BLOCK_ROWS)
		tile[lx][r] = idata[in_base + (size_t)r * n + lx];
	__syncthreads();
	/* Output row lx of the tile is input column lx. */
	for (int j = 0; j < RUN; j++)
		odata[out_base + (size_t)lx * n + ly * RUN + j] = tile[lx][ly * RUN + j];
}
