// A transpose that asks for 4 MiB of static shared memory: more than any
// GPU's block may have (the H100 gives 227 KiB). It must fail its build
// saying so: NVRTC's or the driver's JIT log, in the run's result
// (bench/plans/cuda-failures.json, issue 36).
extern "C" __global__ void bigshared(float *odata, const float *idata, int n)
{
	__shared__ float t[1 << 20];
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int at = threadIdx.y * blockDim.x + threadIdx.x;

	t[at] = idata[y * n + x];
	__syncthreads();
	odata[x * n + y] = t[at];
}
