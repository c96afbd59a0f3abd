// A transpose through shared memory in float4 blocks: each block moves its
// TILE_DIM x TILE_DIM tile as 16-byte quads. Threads load quads of tile rows
// into a padded shared tile, then store quads of the transposed rows, each
// made of four tile rows of one column. Global loads and stores are 16 bytes
// and coalesced; the shared writes and the column reads step TILE_DIM + 1
// words. Runs like transpose's padded variant (mtran_padded in
// kernels/transpose.cu) and transposes exactly, so it verifies.
//
// The CUDA form of ../transpose_float4_local.cl, line for line: vload4 and
// vstore4 are float4 loads and stores (each quad starts at a multiple of 4
// floats from a 16-byte aligned buffer, n being a multiple of TILE_DIM), the
// (float4)(...) literal is make_float4, the __local tile a static __shared__
// array. The store indexes odata as float4s: written as a store through
// (float4 *)(odata + offset), nvcc 13 splits it into four 4-byte stores.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define QUADS (TILE_DIM / 4)	/* float4s per tile row */

extern "C" __global__ void transpose_float4_local(float *odata, const float *idata, int n)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];
	int t = threadIdx.y * TILE_DIM + threadIdx.x;
	size_t in_base = (size_t)blockIdx.y * TILE_DIM * n + (size_t)blockIdx.x * TILE_DIM;
	size_t out_base = (size_t)blockIdx.x * TILE_DIM * n + (size_t)blockIdx.y * TILE_DIM;

	for (int q = t; q < TILE_DIM * QUADS; q += TILE_DIM * BLOCK_ROWS) {
		int r = q / QUADS, c = (q % QUADS) * 4;
		float4 v = *(const float4 *)(idata + in_base + (size_t)r * n + c);

		tile[r][c] = v.x;
		tile[r][c + 1] = v.y;
		tile[r][c + 2] = v.z;
		tile[r][c + 3] = v.w;
	}
	__syncthreads();
	/* Output row r is input column r. */
	for (int q = t; q < TILE_DIM * QUADS; q += TILE_DIM * BLOCK_ROWS) {
		int r = q / QUADS, c = (q % QUADS) * 4;
		float4 v = make_float4(tile[c][r], tile[c + 1][r], tile[c + 2][r], tile[c + 3][r]);

		((float4 *)odata)[(out_base + (size_t)r * n + c) / 4] = v;
	}
}
