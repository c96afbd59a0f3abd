// CSR SpMV in CUDA: a row per thread, or a row per block whose threads share
// the row and add their sums in shared memory (the launch's dynamic shared
// memory): the twin of tests/fixtures/own/spmv.json's OpenCL.
extern "C" __global__ void spmv_scalar(unsigned rows, const unsigned *ptr, const unsigned *cols, const float *vals,
				       const float *x, float *y)
{
	unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
	float sum = 0.0f;

	if (r >= rows)
		return;
	for (unsigned k = ptr[r]; k < ptr[r + 1]; k++)
		sum += vals[k] * x[cols[k]];
	y[r] = sum;
}

extern "C" __global__ void spmv_vector(unsigned rows, const unsigned *ptr, const unsigned *cols, const float *vals,
				       const float *x, float *y)
{
	extern __shared__ float part[];
	unsigned r = blockIdx.x, l = threadIdx.x, n = blockDim.x;
	float sum = 0.0f;

	for (unsigned k = ptr[r] + l; k < ptr[r + 1]; k += n)
		sum += vals[k] * x[cols[k]];
	part[l] = sum;
	__syncthreads();
	for (unsigned s = n / 2; s > 0; s /= 2) {
		if (l < s)
			part[l] += part[l + s];
		__syncthreads();
	}
	if (l == 0)
		y[r] = part[0];
}
