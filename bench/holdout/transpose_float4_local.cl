// A float4-blocked transpose through local memory: each work-group moves its
// TILE_DIM x TILE_DIM tile as float4s — every work-item loads 16-byte quads
// of tile rows with vload4 into a padded local tile, then stores 16-byte
// quads of the transposed rows with vstore4, reading four tile rows of one
// column for each. Access: 16-byte coalesced global loads and stores; the
// local writes and the column reads stride by TILE_DIM + 1 words. Runs like
// transpose's padded variant and transposes exactly, so it verifies.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define QUADS (TILE_DIM / 4)	/* float4s per tile row */

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_float4_local(__global float *odata, __global const float *idata, int n)
{
	__local float tile[TILE_DIM][TILE_DIM + 1];
	int t = get_local_id(1) * TILE_DIM + get_local_id(0);
	size_t in_base = (size_t)get_group_id(1) * TILE_DIM * n + get_group_id(0) * TILE_DIM;
	size_t out_base = (size_t)get_group_id(0) * TILE_DIM * n + get_group_id(1) * TILE_DIM;

	for (int q = t; q < TILE_DIM * QUADS; q += TILE_DIM * BLOCK_ROWS) {
		int r = q / QUADS, c = (q % QUADS) * 4;
		float4 v = vload4(0, idata + in_base + (size_t)r * n + c);

		tile[r][c] = v.x;
		tile[r][c + 1] = v.y;
		tile[r][c + 2] = v.z;
		tile[r][c + 3] = v.w;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	/* Output row r is input column r. */
	for (int q = t; q < TILE_DIM * QUADS; q += TILE_DIM * BLOCK_ROWS) {
		int r = q / QUADS, c = (q % QUADS) * 4;
		float4 v = (float4)(tile[c][r], tile[c + 1][r], tile[c + 2][r], tile[c + 3][r]);

		vstore4(v, 0, odata + out_base + (size_t)r * n + c);
	}
}
