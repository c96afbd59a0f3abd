// PolyBench/GPU's jacobi-2d, the textbook 2-D 5-point stencil:
// B[y][x] = 0.2 (A[y][x] + A[y][x-1] + A[y][x+1] + A[y-1][x] + A[y+1][x]),
// edges clamped. The block walks its tile's rows BLOCK_ROWS apart, as the
// transpose's copy kernel does. Per output, five loads (three from one row,
// sharing lines; one from the row above, one from below) and one coalesced
// store. Runs like transpose's copy variant (mtran_copy in
// kernels/transpose.cu); unverified.
//
// The CUDA form of ../jacobi2d_5pt.cl, line for line.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

extern "C" __global__ void jacobi2d_5pt(float *odata, const float *idata, int n)
{
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int xl = x > 0 ? x - 1 : 0, xr = x + 1 < n ? x + 1 : n - 1;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int y = blockIdx.y * TILE_DIM + threadIdx.y + i;
		int yu = y > 0 ? y - 1 : 0, yd = y + 1 < n ? y + 1 : n - 1;
		size_t row = (size_t)y * n;
		float sum = idata[row + x] + idata[row + xl] + idata[row + xr] +
			    idata[(size_t)yu * n + x] + idata[(size_t)yd * n + x];

		odata[row + x] = 0.2f * sum;
	}
}
