// A local-memory transpose with a skewed (rotated) tile instead of padding:
// element (r, c) of the tile is kept at tile[r][(c + r) mod TILE_DIM], so a
// tile column is spread over all banks without the extra word per row.
// Access: coalesced global loads and stores, conflict-free local writes and
// column reads (bank (r + c) mod 32). Runs like transpose's padded variant
// and verifies.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_skewed(__global float *odata, __global const float *idata, int n)
{
	__local float tile[TILE_DIM][TILE_DIM];
	int lx = get_local_id(0), ly = get_local_id(1);
	size_t in_base = (size_t)get_group_id(1) * TILE_DIM * n + get_group_id(0) * TILE_DIM;
	size_t out_base = (size_t)get_group_id(0) * TILE_DIM * n + get_group_id(1) * TILE_DIM;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;

		tile[r][(lx + r) & (TILE_DIM - 1)] = idata[in_base + (size_t)r * n + lx];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;	/* output row r is input column r */

		odata[out_base + (size_t)r * n + lx] = tile[lx][(r + lx) & (TILE_DIM - 1)];
	}
}
