// BabelStream's Mul kernel (b[i] = scalar * c[i]) as a copy: one stream read,
// one stream written, a multiply in between. Each thread reads one float and
// writes one, at unit stride. The scalar is 1 so that copy's check passes,
// but it is computed from count at run time, so the multiply stays in the
// code. Runs like copy's float variant (copy_float in kernels/copy.cu).
//
// The CUDA form of ../stream_mul.cl, line for line: get_global_id(0) is
// blockIdx.x * blockDim.x + threadIdx.x, in size_t as the twin has it.

extern "C" __global__ void stream_mul(const float *in, float *out, unsigned int count)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	float scalar = (float)(count > 0u);

	if (i < count)
		out[i] = scalar * in[i];
}
