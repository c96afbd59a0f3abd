// PolyBench/GPU's jacobi-1d step, B[i] = (A[i-1] + A[i] + A[i+1]) / 3: each
// thread makes three overlapping unit-stride reads (the warp shares the
// neighbours' lines) and one write. Both ends are clamped, so every read is
// inside the buffer. Runs like copy's float variant (copy_float in
// kernels/copy.cu); it averages instead of copying, so it is unverified.
//
// The CUDA form of ../stencil3_jacobi1d.cl, line for line.

extern "C" __global__ void stencil3_jacobi1d(const float *in, float *out, unsigned int count)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	if (i >= count)
		return;
	size_t left = i > 0 ? i - 1 : 0;
	size_t right = i + 1 < count ? i + 1 : count - 1;

	out[i] = (in[left] + in[i] + in[right]) * (1.0f / 3.0f);
}
