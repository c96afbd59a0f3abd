// Sum reduction in CUDA, the twin of reduction.cl: each block reduces its part
// of the input to one partial sum and the host adds the partial sums. Seed
// 001's two kernels keep their names and indexing (tile_static -> __shared__,
// tidx.barrier.wait() -> __syncthreads()). TILE_SIZE, the block size, comes
// from the build options and is declared to the compiler (__launch_bounds__).

#ifndef TILE_SIZE
#define TILE_SIZE 256
#endif

// Seed 001's reduction_tiled_2: interleaved addressing.
extern "C" __global__ void __launch_bounds__(TILE_SIZE)
reduction_tiled_2(const float *data, float *partial)
{
	__shared__ float tile_data[TILE_SIZE];
	unsigned local_idx = threadIdx.x;

	tile_data[local_idx] = data[blockIdx.x * (size_t)blockDim.x + threadIdx.x];
	__syncthreads();
	for (unsigned s = 1; s < TILE_SIZE; s *= 2) {
		unsigned index = 2 * s * local_idx;

		if (index < TILE_SIZE)
			tile_data[index] += tile_data[index + s];
		__syncthreads();
	}
	if (local_idx == 0)
		partial[blockIdx.x] = tile_data[0];
}

// Seed 001's reduction_tiled_3: sequential addressing, no bank conflicts.
extern "C" __global__ void __launch_bounds__(TILE_SIZE)
reduction_tiled_3(const float *data, float *partial)
{
	__shared__ float tile_data[TILE_SIZE];
	unsigned local_idx = threadIdx.x;

	tile_data[local_idx] = data[blockIdx.x * (size_t)blockDim.x + threadIdx.x];
	__syncthreads();
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (local_idx < s)
			tile_data[local_idx] += tile_data[local_idx + s];
		__syncthreads();
	}
	if (local_idx == 0)
		partial[blockIdx.x] = tile_data[0];
}

// The first add during the load: two elements a tile apart per thread.
extern "C" __global__ void __launch_bounds__(TILE_SIZE)
reduction_first_add(const float *data, float *partial)
{
	__shared__ float tile_data[TILE_SIZE];
	unsigned local_idx = threadIdx.x;
	size_t i = blockIdx.x * (size_t)(2 * TILE_SIZE) + local_idx;

	tile_data[local_idx] = data[i] + data[i + TILE_SIZE];
	__syncthreads();
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (local_idx < s)
			tile_data[local_idx] += tile_data[local_idx + s];
		__syncthreads();
	}
	if (local_idx == 0)
		partial[blockIdx.x] = tile_data[0];
}

// CUDA's float4 has no arithmetic of its own.
__device__ static inline float4 add4(float4 a, float4 b)
{
	return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// A grid-stride loop over float4 elements with as many blocks as the device
// runs at once, four accumulators keeping four 16-byte loads in flight.
extern "C" __global__ void __launch_bounds__(TILE_SIZE)
reduction_grid_stride(const float4 *data, float *partial, unsigned int n4)
{
	__shared__ float tile_data[TILE_SIZE];
	unsigned local_idx = threadIdx.x;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	float4 acc0 = make_float4(0, 0, 0, 0), acc1 = acc0, acc2 = acc0, acc3 = acc0;

	for (; i + 3 * stride < n4; i += 4 * stride) {
		acc0 = add4(acc0, data[i]);
		acc1 = add4(acc1, data[i + stride]);
		acc2 = add4(acc2, data[i + 2 * stride]);
		acc3 = add4(acc3, data[i + 3 * stride]);
	}
	for (; i < n4; i += stride)
		acc0 = add4(acc0, data[i]);
	acc0 = add4(acc0, add4(acc1, add4(acc2, acc3)));
	tile_data[local_idx] = acc0.x + acc0.y + acc0.z + acc0.w;
	__syncthreads();
	for (unsigned s = TILE_SIZE / 2; s > 0; s /= 2) {
		if (local_idx < s)
			tile_data[local_idx] += tile_data[local_idx + s];
		__syncthreads();
	}
	if (local_idx == 0)
		partial[blockIdx.x] = tile_data[0];
}
