// A transpose that writes through a wild pointer at its first point: the
// launch fails with CUDA_ERROR_ILLEGAL_ADDRESS and the context is lost. The
// lost-context policy (runner/executor.c) fails its result, resets the
// device and goes on (bench/plans/cuda-failures.json, issue 36). At other
// points it is a correct naive transpose.
extern "C" __global__ void wild(float *odata, const float *idata, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (n == 256) {
		volatile int *p = (volatile int *)64;
		p[x] = n;
	}
	odata[x * n + y] = idata[y * n + x];
}
