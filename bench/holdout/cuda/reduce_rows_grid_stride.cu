// A grid-stride loop that strides by rows: the input is cut into rows of
// ROW4 float4s (16 KiB) and block g takes rows g, g + blocks, g + 2 blocks,
// ..., its threads reading across each row. Coalesced 16-byte loads, a
// warp's successive requests TILE_SIZE float4s apart within a row, then a
// jump of `blocks` rows; one tree per block. It verifies. Runs like
// reduction's grid_stride variant (reduction_grid_stride in
// kernels/reduction.cu: a persistent grid over n4 float4s).
//
// The CUDA form of ../reduce_rows_grid_stride.cl, line for line: CUDA's
// float4 has no arithmetic, so the float4 add is written out field by field
// (not through a helper returning a float4, which the CPU simulator would
// see as private memory).

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

#define ROW4 1024

extern "C" __global__ void reduce_rows_grid_stride(const float4 *data, float *partial, unsigned int n4)
{
	__shared__ float sums[TILE_SIZE];
	unsigned tid = threadIdx.x;
	size_t rows = ((size_t)n4 + ROW4 - 1) / ROW4;
	float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

	for (size_t row = blockIdx.x; row < rows; row += gridDim.x) {
		for (size_t c = tid; c < ROW4; c += TILE_SIZE) {
			size_t i = row * ROW4 + c;

			if (i < n4) {
				float4 v = data[i];

				acc.x += v.x;
				acc.y += v.y;
				acc.z += v.z;
				acc.w += v.w;
			}
		}
	}
	sums[tid] = acc.x + acc.y + acc.z + acc.w;
	__syncthreads();
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partial[blockIdx.x] = sums[0];
}
