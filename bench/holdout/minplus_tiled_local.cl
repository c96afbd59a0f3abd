// The min-plus product with 16 x 16 tiles in local memory (the shared-memory
// tiling of the CUDA samples' matrixMul, applied to seed 002's v1 indexing):
// r[j][i] = min over k of d[j][k] + d[k][i]. The group stages a tile of its
// rows of d and a tile of its columns per step of 16 k, padding past n with
// infinity, which no minimum picks — the result equals v1's and verifies.
// Access: two coalesced 16-float loads per work-item per step; two local
// stores, 2-way conflicted (a warp spans two tile rows, and the +1 pad
// puts the second row's last word in the first row's bank 0); 32
// conflict-free local reads; two barriers. Runs like minplus's v1 variant
// (global n rounded up to 16, 16 x 16 groups).

#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void minplus_tiled_local(__global float *r, __global const float *d, int n)
{
	__local float rows[TILE][TILE + 1];	/* d[j][k0 + x] */
	__local float cols[TILE][TILE + 1];	/* d[k0 + y][i] */
	int lx = get_local_id(0), ly = get_local_id(1);
	int i = get_global_id(0), j = get_global_id(1);
	float v = INFINITY;

	for (int k0 = 0; k0 < n; k0 += TILE) {
		rows[ly][lx] = j < n && k0 + lx < n ? d[(size_t)n * j + k0 + lx] : INFINITY;
		cols[ly][lx] = k0 + ly < n && i < n ? d[(size_t)n * (k0 + ly) + i] : INFINITY;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < TILE; k++)
			v = min(v, rows[ly][k] + cols[k][lx]);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (i < n && j < n)
		r[(size_t)n * j + i] = v;
}
