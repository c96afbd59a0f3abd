// The same records as a struct of arrays: the n * stride floats seen as
// `stride` arrays of n (field f of record i at a[f * n + i]); thread i adds
// fields x and y of its record. Two unit-stride streams n floats apart, every
// sector fully used. Runs like strided's stride variant (read_strided in
// kernels/strided.cu); unverified (the check reads another layout).
//
// The CUDA form of ../soa_field_read.cl, line for line.

extern "C" __global__ void soa_field_read(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t n = (size_t)gridDim.x * blockDim.x;
	float x = a[i];
	float y = stride > 1 ? a[n + i] : 0.0f;

	out[i] = x + y;
}
