// After PolyBench/GPU 2DConvolution: a 3 x 3 convolution with the
// benchmark's nine fixed coefficients, read straight from global memory (no
// staging), the image's edges clamped. Access: nine loads per output from
// three rows, most of them lines a neighbour also reads; one coalesced store.
// The group walks its tile's rows as the transpose's copy kernel does. Runs
// like transpose's copy variant; unverified.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__constant float coefficient[3][3] = {
	{ 0.2f, -0.3f, 0.4f },
	{ 0.5f, 0.6f, 0.7f },
	{ -0.8f, -0.9f, 0.1f },
};

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void conv2d_3x3(__global float *odata, __global const float *idata, int n)
{
	int x = get_group_id(0) * TILE_DIM + get_local_id(0);

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
		int y = get_group_id(1) * TILE_DIM + get_local_id(1) + i;
		float acc = 0.0f;

		for (int dy = -1; dy <= 1; dy++) {
			size_t row = (size_t)clamp(y + dy, 0, n - 1) * n;

			for (int dx = -1; dx <= 1; dx++)
				acc += coefficient[dy + 1][dx + 1] * idata[row + clamp(x + dx, 0, n - 1)];
		}
		odata[(size_t)y * n + x] = acc;
	}
}
