// A shared-memory transpose through a tile of half the height: the block's
// TILE_DIM x TILE_DIM tile passes through a [TILE_DIM / 2][TILE_DIM + 1]
// buffer in two rounds of TILE_DIM / 2 input rows (half the shared memory,
// one more pair of barriers), each round writing TILE_DIM / 2 consecutive
// floats of every output row. Coalesced row loads, half-row stores, and
// column reads of the padded buffer where a warp reads two neighbouring
// half-columns whose banks overlap: a 2-way conflict that the full padded
// tile does not have. Runs like transpose's padded variant (mtran_padded in
// kernels/transpose.cu) and verifies.
//
// The CUDA form of ../transpose_half_tile.cl, line for line.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define HALF (TILE_DIM / 2)

extern "C" __global__ void transpose_half_tile(float *odata, const float *idata, int n)
{
	__shared__ float half_tile[HALF][TILE_DIM + 1];
	int lx = threadIdx.x, ly = threadIdx.y;
	int t = ly * TILE_DIM + lx;
	size_t in_base = (size_t)blockIdx.y * TILE_DIM * n + (size_t)blockIdx.x * TILE_DIM;
	size_t out_base = (size_t)blockIdx.x * TILE_DIM * n + (size_t)blockIdx.y * TILE_DIM;

	for (int h = 0; h < 2; h++) {
		for (int r = ly; r < HALF; r += BLOCK_ROWS)
			half_tile[r][lx] = idata[in_base + (size_t)(h * HALF + r) * n + lx];
		__syncthreads();
		/* Output row c, columns h * HALF + j, is input column c, rows h * HALF + j. */
		for (int q = t; q < TILE_DIM * HALF; q += TILE_DIM * BLOCK_ROWS) {
			int c = q / HALF, j = q % HALF;

			odata[out_base + (size_t)c * n + h * HALF + j] = half_tile[j][c];
		}
		__syncthreads();
	}
}
