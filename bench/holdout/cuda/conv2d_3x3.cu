// PolyBench/GPU's 2DConvolution: a 3 x 3 convolution with the benchmark's
// nine fixed coefficients, read straight from global memory with no staging,
// the image's edges clamped. Nine loads per output from three rows, most of
// them lines that a neighbour reads too, and one coalesced store; the block
// walks its tile's rows as the transpose's copy kernel does. Runs like
// transpose's copy variant (mtran_copy in kernels/transpose.cu); unverified.
//
// The CUDA form of ../conv2d_3x3.cl (clamp is clampi): the coefficients
// are a __constant__ array, as the OpenCL ones are a program-scope
// __constant array.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__device__ int clampi(int v, int lo, int hi)
{
	return min(max(v, lo), hi);
}

__constant__ float coefficient[3][3] = {
	{ 0.2f, -0.3f, 0.4f },
	{ 0.5f, 0.6f, 0.7f },
	{ -0.8f, -0.9f, 0.1f },
};

extern "C" __global__ void conv2d_3x3(float *odata, const float *idata, int n)
{
	int x = blockIdx.x * TILE_DIM + threadIdx.x;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int y = blockIdx.y * TILE_DIM + threadIdx.y + i;
		float acc = 0.0f;

		for (int dy = -1; dy <= 1; dy++) {
			size_t row = (size_t)clampi(y + dy, 0, n - 1) * n;

			for (int dx = -1; dx <= 1; dx++)
				acc += coefficient[dy + 1][dx + 1] * idata[row + clampi(x + dx, 0, n - 1)];
		}
		odata[(size_t)y * n + x] = acc;
	}
}
