// A tiled 3 x 3 box blur with a one-pixel halo in shared memory, the image
// filter of every GPU tutorial: the block stages its tile and a border of one
// pixel (clamped at the image's edges) in a (TILE_DIM + 2)^2 buffer, then each
// output is the mean of nine staged pixels. Coalesced loads of the staged rows
// (neighbouring blocks read the border again), nine shared reads per output,
// coalesced stores. Runs like transpose's copy variant (mtran_copy in
// kernels/transpose.cu); unverified.
//
// The CUDA form of ../blur3x3_halo_local.cl, line for line: OpenCL's clamp on
// ints is the __device__ helper clampi (min(max(v, lo), hi)).

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define SIDE (TILE_DIM + 2)

__device__ int clampi(int v, int lo, int hi)
{
	return min(max(v, lo), hi);
}

extern "C" __global__ void blur3x3_halo_local(float *odata, const float *idata, int n)
{
	__shared__ float tile[SIDE][SIDE + 1];
	int lx = threadIdx.x, ly = threadIdx.y;
	int x0 = blockIdx.x * TILE_DIM - 1, y0 = blockIdx.y * TILE_DIM - 1;

	for (int q = ly * TILE_DIM + lx; q < SIDE * SIDE; q += TILE_DIM * BLOCK_ROWS) {
		int r = q / SIDE, c = q % SIDE;
		int y = clampi(y0 + r, 0, n - 1), x = clampi(x0 + c, 0, n - 1);

		tile[r][c] = idata[(size_t)y * n + x];
	}
	__syncthreads();
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int r = ly + i;
		float sum = 0.0f;

		for (int dr = 0; dr < 3; dr++)
			for (int dc = 0; dc < 3; dc++)
				sum += tile[r + dr][lx + dc];
		odata[(size_t)(y0 + 1 + r) * n + x0 + 1 + lx] = sum * (1.0f / 9.0f);
	}
}
