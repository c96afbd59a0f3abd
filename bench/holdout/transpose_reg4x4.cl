// A transpose in registers, 4 x 4 blocks at a time, with no local memory
// (as SIMD transposes on CPUs do it): a work-item loads four rows of a 4 x 4
// block with vload4, swaps rows for columns among its registers and stores
// four float4 rows of the transposed block. Only TILE_DIM^2 / 16 work-items
// of a group have a block. Access: 16-byte loads, 8 neighbours covering a
// 128-byte row segment, four rows apart; stores the same shape. Runs like
// transpose's padded variant and verifies.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define BLOCKS (TILE_DIM / 4)	/* 4 x 4 blocks per tile side */

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void transpose_reg4x4(__global float *odata, __global const float *idata, int n)
{
	int t = get_local_id(1) * TILE_DIM + get_local_id(0);
	size_t in_base = (size_t)get_group_id(1) * TILE_DIM * n + get_group_id(0) * TILE_DIM;
	size_t out_base = (size_t)get_group_id(0) * TILE_DIM * n + get_group_id(1) * TILE_DIM;

	for (int q = t; q < BLOCKS * BLOCKS; q += TILE_DIM * BLOCK_ROWS) {
		int br = q / BLOCKS, bc = q % BLOCKS;
		__global const float *src = idata + in_base + (size_t)(4 * br) * n + 4 * bc;
		__global float *dst = odata + out_base + (size_t)(4 * bc) * n + 4 * br;
		float4 r0 = vload4(0, src);
		float4 r1 = vload4(0, src + n);
		float4 r2 = vload4(0, src + 2 * (size_t)n);
		float4 r3 = vload4(0, src + 3 * (size_t)n);

		vstore4((float4)(r0.x, r1.x, r2.x, r3.x), 0, dst);
		vstore4((float4)(r0.y, r1.y, r2.y, r3.y), 0, dst + n);
		vstore4((float4)(r0.z, r1.z, r2.z, r3.z), 0, dst + 2 * (size_t)n);
		vstore4((float4)(r0.w, r1.w, r2.w, r3.w), 0, dst + 3 * (size_t)n);
	}
}
