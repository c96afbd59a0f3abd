// After the CUDA samples' convolutionSeparable, column pass: a 17-tap filter
// down each column, the group's tile staged in local memory with RADIUS rows
// of halo above and below (clamped at the image's edges). Access: coalesced
// loads of TILE_DIM + 2 RADIUS tile rows, 17 local reads down a column per
// output (stride TILE_DIM + 1 words), coalesced stores. Runs like transpose's
// copy variant; unverified.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define RADIUS 8
#define TALL (TILE_DIM + 2 * RADIUS)

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void convsep_cols_local(__global float *odata, __global const float *idata, int n)
{
	__local float cols[TALL][TILE_DIM + 1];
	int lx = get_local_id(0), ly = get_local_id(1);
	int x0 = get_group_id(0) * TILE_DIM, y0 = get_group_id(1) * TILE_DIM;

	for (int r = ly; r < TALL; r += BLOCK_ROWS) {
		int y = clamp(y0 + r - RADIUS, 0, n - 1);

		cols[r][lx] = idata[(size_t)y * n + x0 + lx];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;
		float acc = 0.0f;

		for (int k = -RADIUS; k <= RADIUS; k++)
			acc += cols[r + RADIUS + k][lx] * (1.0f / (1 + k * k));
		odata[(size_t)(y0 + r) * n + x0 + lx] = acc;
	}
}
