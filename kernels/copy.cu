// The copy experiment in CUDA, the twin of copy.cl: each thread copies one
// element, read once and written once, with scalar, 2-wide and 4-wide loads.
// The fastest of the three is the device's bandwidth ceiling (seed 003: "as
// good as simple copying"). count is the number of elements of the kernel's
// own type (n / width); the grid is rounded up to whole blocks, hence the
// bound check. LOCAL_SIZE, the block size, is declared to the compiler
// (__launch_bounds__) as copy.cl declares it (reqd_work_group_size).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
copy_float(const float *in, float *out, unsigned int count)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < count)
		out[i] = in[i];
}

extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
copy_float2(const float2 *in, float2 *out, unsigned int count)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < count)
		out[i] = in[i];
}

extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
copy_float4(const float4 *in, float4 *out, unsigned int count)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < count)
		out[i] = in[i];
}
