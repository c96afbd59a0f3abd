// The column pass of the CUDA samples' convolutionSeparable: a 17-tap filter
// down each column, the block's tile staged in shared memory with RADIUS rows
// of halo above and below (clamped at the image's edges). Coalesced loads of
// TILE_DIM + 2 RADIUS tile rows, 17 shared reads down a column per output
// (TILE_DIM + 1 words apart), coalesced stores. Runs like transpose's copy
// variant (mtran_copy in kernels/transpose.cu); unverified.
//
// The CUDA form of ../convsep_cols_local.cl, line for line (clamp is clampi).

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define RADIUS 8
#define TALL (TILE_DIM + 2 * RADIUS)

__device__ int clampi(int v, int lo, int hi)
{
	return min(max(v, lo), hi);
}

extern "C" __global__ void convsep_cols_local(float *odata, const float *idata, int n)
{
	__shared__ float cols[TALL][TILE_DIM + 1];
	int lx = threadIdx.x, ly = threadIdx.y;
	int x0 = blockIdx.x * TILE_DIM, y0 = blockIdx.y * TILE_DIM;

	for (int r = ly; r < TALL; r += BLOCK_ROWS) {
		int y = clampi(y0 + r - RADIUS, 0, n - 1);

		cols[r][lx] = idata[(size_t)y * n + x0 + lx];
	}
	__syncthreads();
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;
		float acc = 0.0f;

		for (int k = -RADIUS; k <= RADIUS; k++)
			acc += cols[r + RADIUS + k][lx] * (1.0f / (1 + k * k));
		odata[(size_t)(y0 + r) * n + x0 + lx] = acc;
	}
}
