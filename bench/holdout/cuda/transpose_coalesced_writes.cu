// The naive transpose the other way round: thread (x, y) writes odata[y][x]
// in order and reads idata[x][y] down a column, so the stores coalesce and
// the loads are n floats apart (the textbook alternative to the seed's naive
// kernel, which coalesces its loads and scatters its stores). One element per
// thread. Runs like transpose's naive variant (mtran in kernels/transpose.cu,
// a grid of n x n threads) and verifies.
//
// The CUDA form of ../transpose_coalesced_writes.cl, line for line:
// get_global_id(1) is blockIdx.y * blockDim.y + threadIdx.y.

extern "C" __global__ void transpose_coalesced_writes(float *odata, const float *idata, int n)
{
	size_t x = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t y = blockIdx.y * (size_t)blockDim.y + threadIdx.y;

	odata[y * n + x] = idata[x * n + y];
}
