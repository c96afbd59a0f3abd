// SAXPY in CUDA, scalar against float4: the twin of tests/fixtures/own/saxpy.json's OpenCL.
extern "C" __global__ void saxpy(unsigned n, float a, const float *x, float *y)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + y[i];
}

extern "C" __global__ void saxpy4(unsigned n, float a, const float4 *x, float4 *y)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n / 4) {
		float4 v = x[i], w = y[i];

		y[i] = make_float4(a * v.x + w.x, a * v.y + w.y, a * v.z + w.z, a * v.w + w.w);
	}
}

// Never ends: a kernel someone brought by mistake.
extern "C" __global__ void spin(unsigned n, float a, const float *x, float *y)
{
	volatile const float *p = x;

	while (p[0] != 12345.0f)
		;
	y[0] = a;
}
