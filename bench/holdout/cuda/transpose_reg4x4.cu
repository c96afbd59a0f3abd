// A transpose in registers, one 4 x 4 block at a time and no shared memory,
// as SIMD transposes on CPUs work: a thread loads the four rows of a 4 x 4
// block as float4s, swaps rows for columns among its registers and stores the
// transposed block's four rows as float4s. Only TILE_DIM^2 / 16 threads of a
// block have a 4 x 4 block. Loads are 16 bytes, 8 neighbours covering a
// 128-byte row segment, four rows apart; the stores have the same shape. Runs
// like transpose's padded variant (mtran_padded in kernels/transpose.cu) and
// verifies.
//
// The CUDA form of ../transpose_reg4x4.cl, line for line: vload4 and vstore4
// are float4 loads and stores (every row of a 4 x 4 block starts at a
// multiple of 4 floats, n being a multiple of TILE_DIM), the (float4)(...)
// literals make_float4. src and dst are float4 pointers and the rows n / 4
// float4s apart: written as stores through (float4 *)(dst + k n), nvcc 13
// splits each into four 4-byte stores.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define BLOCKS (TILE_DIM / 4)	/* 4 x 4 blocks per tile side */

extern "C" __global__ void transpose_reg4x4(float *odata, const float *idata, int n)
{
	int t = threadIdx.y * TILE_DIM + threadIdx.x;
	size_t in_base = (size_t)blockIdx.y * TILE_DIM * n + (size_t)blockIdx.x * TILE_DIM;
	size_t out_base = (size_t)blockIdx.x * TILE_DIM * n + (size_t)blockIdx.y * TILE_DIM;
	size_t row4 = (size_t)n / 4;	/* n floats: one matrix row, in float4s */

	for (int q = t; q < BLOCKS * BLOCKS; q += TILE_DIM * BLOCK_ROWS) {
		int br = q / BLOCKS, bc = q % BLOCKS;
		const float4 *src = (const float4 *)idata + (in_base + (size_t)(4 * br) * n + 4 * bc) / 4;
		float4 *dst = (float4 *)odata + (out_base + (size_t)(4 * bc) * n + 4 * br) / 4;
		float4 r0 = src[0];
		float4 r1 = src[row4];
		float4 r2 = src[2 * row4];
		float4 r3 = src[3 * row4];

		dst[0] = make_float4(r0.x, r1.x, r2.x, r3.x);
		dst[row4] = make_float4(r0.y, r1.y, r2.y, r3.y);
		dst[2 * row4] = make_float4(r0.z, r1.z, r2.z, r3.z);
		dst[3 * row4] = make_float4(r0.w, r1.w, r2.w, r3.w);
	}
}
