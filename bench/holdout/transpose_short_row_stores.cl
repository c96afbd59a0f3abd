// A local-memory transpose whose work-items each write a short run of one
// output row (after the CUDA samples' transpose, with the write-back turned):
// the group's tile goes into padded local memory column-wise, and work-item
// (lx, ly) then writes words ly * RUN .. ly * RUN + RUN - 1 of the tile's
// output row lx, RUN = TILE_DIM / BLOCK_ROWS (with tile 32 and rows 8, four
// scalar stores: a float4's worth written a word at a time). Access:
// coalesced row loads; column stores into the padded tile and column reads
// out of it, both a stride of TILE_DIM + 1 words (no bank conflict); and
// strided global stores: each warp's store writes one 4-byte word in each of
// 32 output rows, n floats apart, so every store instruction leaves 32
// sectors partly written, and the group's warps fill each row's 128-byte
// line between them over their RUN stores. Runs like transpose's padded
// variant and verifies.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define RUN (TILE_DIM / BLOCK_ROWS)	/* words of an output row per work-item */

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_short_row_stores(__global float *odata, __global const float *idata, int n)
{
	__local float tile[TILE_DIM][TILE_DIM + 1];	/* tile[c][r] is input (r, c) */
	int lx = get_local_id(0), ly = get_local_id(1);
	size_t in_base = (size_t)get_group_id(1) * TILE_DIM * n + (size_t)get_group_id(0) * TILE_DIM;
	size_t out_base = (size_t)get_group_id(0) * TILE_DIM * n + (size_t)get_group_id(1) * TILE_DIM;

	for (int r = ly; r < TILE_DIM; r += BLOCK_ROWS)
		tile[lx][r] = idata[in_base + (size_t)r * n + lx];
	barrier(CLK_LOCAL_MEM_FENCE);
	/* Output row lx of the tile is input column lx. */
	for (int j = 0; j < RUN; j++)
		odata[out_base + (size_t)lx * n + ly * RUN + j] = tile[lx][ly * RUN + j];
}
