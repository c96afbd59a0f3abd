// Min-plus product in CUDA, seed 002's own language ("Programming Parallel
// Computers", chapter 4, version 1), the twins of minplus.cl: r[i][j] = min
// over k of d[i][k] + d[k][j], with 16 x 16 blocks (declared to the compiler,
// __launch_bounds__). The grid is rounded up to whole blocks, hence the
// seed's bound check. 2 n^3 operations.

// The seed's HUGE_VALF comes from <math.h>, which NVRTC's sources may not
// include: infinity by its bits.
#ifndef HUGE_VALF
#define HUGE_VALF __int_as_float(0x7f800000)
#endif

// v0: a warp's neighbours differ in i: d[n*i + k] spans 16 rows.
extern "C" __global__ void __launch_bounds__(256)
v0(float *r, const float *d, int n)
{
	int i = threadIdx.x + blockIdx.x * blockDim.x;
	int j = threadIdx.y + blockIdx.y * blockDim.y;

	if (i >= n || j >= n)
		return;
	float v = HUGE_VALF;
	for (int k = 0; k < n; ++k) {
		float x = d[n * i + k];
		float y = d[n * k + j];
		float z = x + y;
		v = min(v, z);
	}
	r[n * i + j] = v;
}

// The attempt that "does not work": the second operand from the transpose t.
extern "C" __global__ void __launch_bounds__(256)
v0_transposed(float *r, const float *d, const float *t, int n)
{
	int i = threadIdx.x + blockIdx.x * blockDim.x;
	int j = threadIdx.y + blockIdx.y * blockDim.y;

	if (i >= n || j >= n)
		return;
	float v = HUGE_VALF;
	for (int k = 0; k < n; ++k) {
		float x = d[n * i + k];
		float y = t[n * j + k];
		float z = x + y;
		v = min(v, z);
	}
	r[n * i + j] = v;
}

// v1: i and j swapped, the reads coalesce ("8 s instead of 42 s").
extern "C" __global__ void __launch_bounds__(256)
v1(float *r, const float *d, int n)
{
	int i = threadIdx.x + blockIdx.x * blockDim.x;
	int j = threadIdx.y + blockIdx.y * blockDim.y;

	if (i >= n || j >= n)
		return;
	float v = HUGE_VALF;
	for (int k = 0; k < n; ++k) {
		float x = d[n * j + k];
		float y = d[n * k + i];
		float z = x + y;
		v = min(v, z);
	}
	r[n * j + i] = v;
}
