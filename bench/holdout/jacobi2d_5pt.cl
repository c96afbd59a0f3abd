// After PolyBench/GPU jacobi-2d (and the textbook 2-D 5-point stencil):
// B[y][x] = 0.2 (A[y][x] + A[y][x-1] + A[y][x+1] + A[y-1][x] + A[y+1][x]),
// with the edges clamped. The work-group walks its tile's rows as the
// transpose's copy kernel does (BLOCK_ROWS apart). Access: per output five
// loads — three from one row (shared lines), one from the row above and one
// below — and one coalesced store. Runs like transpose's copy variant;
// unverified.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void jacobi2d_5pt(__global float *odata, __global const float *idata, int n)
{
	int x = get_group_id(0) * TILE_DIM + get_local_id(0);
	int xl = x > 0 ? x - 1 : 0, xr = x + 1 < n ? x + 1 : n - 1;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int y = get_group_id(1) * TILE_DIM + get_local_id(1) + i;
		int yu = y > 0 ? y - 1 : 0, yd = y + 1 < n ? y + 1 : n - 1;
		size_t row = (size_t)y * n;
		float sum = idata[row + x] + idata[row + xl] + idata[row + xr] +
			    idata[(size_t)yu * n + x] + idata[(size_t)yd * n + x];

		odata[row + x] = 0.2f * sum;
	}
}
