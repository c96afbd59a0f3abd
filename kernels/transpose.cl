// Matrix transposition, after seed 003 (Filipovič, "GPU Hardware Performance")
// and seed 001 (bank conflicts on the tile). The kernels keep the seed's names and
// indexing, translated from CUDA to OpenCL:
//   blockIdx.x -> get_group_id(0), threadIdx.x -> get_local_id(0),
//   gridDim.x -> get_num_groups(0), __shared__ -> __local,
//   __syncthreads() -> barrier(CLK_LOCAL_MEM_FENCE).
// TILE_DIM and BLOCK_ROWS come from the build options (-D), as the seed's
// constants: 32x32 tiles worked on by 32x8 work-items is its best case.
// n is a multiple of TILE_DIM (the catalog enforces it), so no bound checks.
// Each kernel declares its TILE_DIM x BLOCK_ROWS work-group size
// (reqd_work_group_size), so the compiler knows it.

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

// The baseline: copy each tile in place with the same loop shape as the tiled
// kernels ("if we only copy within the blocks, we get 94.9 GB/s").
__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void mtran_copy(__global float *odata, __global const float *idata, int n)
{
	int x = get_group_id(0) * TILE_DIM + get_local_id(0);
	int y = get_group_id(1) * TILE_DIM + get_local_id(1);
	int index = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index + i * n] = idata[index + i * n];
}

// The seed's naive transpose: reads are coalesced, writes to odata are
// interleaved by n ("Access to odata is interleaved"). One element per work-item.
__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void mtran(__global float *odata, __global const float *idata, int n)
{
	int x = get_group_id(0) * get_local_size(0) + get_local_id(0);
	int y = get_group_id(1) * get_local_size(1) + get_local_id(1);

	odata[x * n + y] = idata[y * n + x];
}

// mtran_coalesced: read a tile row-wise into local memory, write its
// transposition row-wise. Reading the tile column-wise hits one bank: with 32
// banks, a 32-way conflict.
__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void mtran_coalesced(__global float *odata, __global const float *idata, int n)
{
	__local float tile[TILE_DIM][TILE_DIM];

	int x = get_group_id(0) * TILE_DIM + get_local_id(0);
	int y = get_group_id(1) * TILE_DIM + get_local_id(1);
	int index_in = x + y * n;

	x = get_group_id(1) * TILE_DIM + get_local_id(0);
	y = get_group_id(0) * TILE_DIM + get_local_id(1);
	int index_out = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		tile[get_local_id(1) + i][get_local_id(0)] = idata[index_in + i * n];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index_out + i * n] = tile[get_local_id(0)][get_local_id(1) + i];
}

// The same with the seed's fix, "__shared__ float tile[TILE_DIM][TILE_DIM + 1]":
// a column of the padded tile falls in TILE_DIM different banks.
__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void mtran_padded(__global float *odata, __global const float *idata, int n)
{
	__local float tile[TILE_DIM][TILE_DIM + 1];

	int x = get_group_id(0) * TILE_DIM + get_local_id(0);
	int y = get_group_id(1) * TILE_DIM + get_local_id(1);
	int index_in = x + y * n;

	x = get_group_id(1) * TILE_DIM + get_local_id(0);
	y = get_group_id(0) * TILE_DIM + get_local_id(1);
	int index_out = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		tile[get_local_id(1) + i][get_local_id(0)] = idata[index_in + i * n];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index_out + i * n] = tile[get_local_id(0)][get_local_id(1) + i];
}

// Padded, with the seed's diagonal mapping of work-groups onto tiles, so that
// concurrently running groups spread over the memory partitions:
//   blockIdx_y = blockIdx.x; blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x
__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void mtran_diagonal(__global float *odata, __global const float *idata, int n)
{
	__local float tile[TILE_DIM][TILE_DIM + 1];

	int blockIdx_y = get_group_id(0);
	int blockIdx_x = (get_group_id(0) + get_group_id(1)) % get_num_groups(0);

	int x = blockIdx_x * TILE_DIM + get_local_id(0);
	int y = blockIdx_y * TILE_DIM + get_local_id(1);
	int index_in = x + y * n;

	x = blockIdx_y * TILE_DIM + get_local_id(0);
	y = blockIdx_x * TILE_DIM + get_local_id(1);
	int index_out = x + y * n;

	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		tile[get_local_id(1) + i][get_local_id(0)] = idata[index_in + i * n];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
		odata[index_out + i * n] = tile[get_local_id(0)][get_local_id(1) + i];
}
