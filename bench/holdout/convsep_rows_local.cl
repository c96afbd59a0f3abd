// After the CUDA samples' convolutionSeparable, row pass: a 17-tap filter
// along each row, the group's tile staged in local memory with a halo of
// RADIUS columns on either side (clamped at the image's edges). Access:
// coalesced loads of TILE_DIM + 2 RADIUS floats per tile row, 17 local reads
// along a row per output, coalesced stores. Runs like transpose's copy
// variant; unverified.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define RADIUS 8
#define WIDE (TILE_DIM + 2 * RADIUS)

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void convsep_rows_local(__global float *odata, __global const float *idata, int n)
{
	__local float rows[TILE_DIM][WIDE + 1];
	int lx = get_local_id(0), ly = get_local_id(1);
	int x0 = get_group_id(0) * TILE_DIM, y0 = get_group_id(1) * TILE_DIM;

	for (int q = ly * TILE_DIM + lx; q < TILE_DIM * WIDE; q += TILE_DIM * BLOCK_ROWS) {
		int r = q / WIDE, c = q % WIDE;
		int x = clamp(x0 + c - RADIUS, 0, n - 1);

		rows[r][c] = idata[(size_t)(y0 + r) * n + x];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;
		float acc = 0.0f;

		for (int k = -RADIUS; k <= RADIUS; k++)
			acc += rows[r][lx + RADIUS + k] * (1.0f / (1 + k * k));
		odata[(size_t)(y0 + r) * n + x0 + lx] = acc;
	}
}
