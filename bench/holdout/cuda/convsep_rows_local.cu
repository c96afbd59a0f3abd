// The row pass of the CUDA samples' convolutionSeparable: a 17-tap filter
// along each row, the block's tile staged in shared memory with RADIUS
// columns of halo on each side (clamped at the image's edges). Coalesced
// loads of TILE_DIM + 2 RADIUS floats per tile row, 17 shared reads along a
// row per output, coalesced stores. Runs like transpose's copy variant
// (mtran_copy in kernels/transpose.cu); unverified.
//
// The CUDA form of ../convsep_rows_local.cl, line for line (clamp is clampi).

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define RADIUS 8
#define WIDE (TILE_DIM + 2 * RADIUS)

__device__ int clampi(int v, int lo, int hi)
{
	return min(max(v, lo), hi);
}

extern "C" __global__ void convsep_rows_local(float *odata, const float *idata, int n)
{
	__shared__ float rows[TILE_DIM][WIDE + 1];
	int lx = threadIdx.x, ly = threadIdx.y;
	int x0 = blockIdx.x * TILE_DIM, y0 = blockIdx.y * TILE_DIM;

	for (int q = ly * TILE_DIM + lx; q < TILE_DIM * WIDE; q += TILE_DIM * BLOCK_ROWS) {
		int r = q / WIDE, c = q % WIDE;
		int x = clampi(x0 + c - RADIUS, 0, n - 1);

		rows[r][c] = idata[(size_t)(y0 + r) * n + x];
	}
	__syncthreads();
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;
		float acc = 0.0f;

		for (int k = -RADIUS; k <= RADIUS; k++)
			acc += rows[r][lx + RADIUS + k] * (1.0f / (1 + k * k));
		odata[(size_t)(y0 + r) * n + x0 + lx] = acc;
	}
}
