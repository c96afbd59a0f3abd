// Matrix transposition in CUDA, the seed's own language (seed 003, Filipovič,
// "GPU Hardware Performance"; seed 001 for the tile's bank conflicts): the
// kernels as the seed writes them, the twins of transpose.cl. TILE_DIM and
// BLOCK_ROWS come from the build options (-D), as the seed's constants; n is a
// multiple of TILE_DIM (the catalog enforces it), so no bound checks. Blocks
// are TILE_DIM x BLOCK_ROWS threads, declared to the compiler
// (__launch_bounds__).

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

// The baseline: copy each tile in place with the same loop shape.
extern "C" __global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
mtran_copy(float *odata, const float *idata, int n)
{
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	int index = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index + i * n] = idata[index + i * n];
}

// The seed's naive transpose: "Access to odata is interleaved".
extern "C" __global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
mtran(float *odata, const float *idata, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	odata[x * n + y] = idata[y * n + x];
}

// Read a tile row-wise into shared memory, write its transposition
// row-wise; reading the tile column-wise is a 32-way bank conflict.
extern "C" __global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
mtran_coalesced(float *odata, const float *idata, int n)
{
	__shared__ float tile[TILE_DIM][TILE_DIM];

	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	int index_in = x + y * n;

	x = blockIdx.y * TILE_DIM + threadIdx.x;
	y = blockIdx.x * TILE_DIM + threadIdx.y;
	int index_out = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * n];
	__syncthreads();
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index_out + i * n] = tile[threadIdx.x][threadIdx.y + i];
}

// The seed's fix: "__shared__ float tile[TILE_DIM][TILE_DIM + 1]".
extern "C" __global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
mtran_padded(float *odata, const float *idata, int n)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];

	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	int index_in = x + y * n;

	x = blockIdx.y * TILE_DIM + threadIdx.x;
	y = blockIdx.x * TILE_DIM + threadIdx.y;
	int index_out = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * n];
	__syncthreads();
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index_out + i * n] = tile[threadIdx.x][threadIdx.y + i];
}

// Padded, with the seed's diagonal mapping of blocks onto tiles:
//   blockIdx_y = blockIdx.x; blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x
extern "C" __global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
mtran_diagonal(float *odata, const float *idata, int n)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];

	int blockIdx_y = blockIdx.x;
	int blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x;

	int x = blockIdx_x * TILE_DIM + threadIdx.x;
	int y = blockIdx_y * TILE_DIM + threadIdx.y;
	int index_in = x + y * n;

	x = blockIdx_y * TILE_DIM + threadIdx.x;
	y = blockIdx_x * TILE_DIM + threadIdx.y;
	int index_out = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * n];
	__syncthreads();
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index_out + i * n] = tile[threadIdx.x][threadIdx.y + i];
}
