// A tiled 3 x 3 box blur with a one-pixel halo in local memory (the image
// filter of every GPU tutorial): the group stages its tile plus a border of
// one (clamped at the image's edges) in a (TILE_DIM + 2)^2 buffer, then each
// output averages nine staged pixels. Access: coalesced loads of the staged
// rows (the border re-read by the neighbouring groups), nine local reads per
// output, coalesced stores. Runs like transpose's copy variant; unverified.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define SIDE (TILE_DIM + 2)

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void blur3x3_halo_local(__global float *odata, __global const float *idata, int n)
{
	__local float tile[SIDE][SIDE + 1];
	int lx = get_local_id(0), ly = get_local_id(1);
	int x0 = get_group_id(0) * TILE_DIM - 1, y0 = get_group_id(1) * TILE_DIM - 1;

	for (int q = ly * TILE_DIM + lx; q < SIDE * SIDE; q += TILE_DIM * BLOCK_ROWS) {
		int r = q / SIDE, c = q % SIDE;
		int y = clamp(y0 + r, 0, n - 1), x = clamp(x0 + c, 0, n - 1);

		tile[r][c] = idata[(size_t)y * n + x];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;
		float sum = 0.0f;

		for (int dr = 0; dr < 3; dr++)
			for (int dc = 0; dc < 3; dc++)
				sum += tile[r + dr][lx + dc];
		odata[(size_t)(y0 + 1 + r) * n + x0 + 1 + lx] = sum * (1.0f / 9.0f);
	}
}
