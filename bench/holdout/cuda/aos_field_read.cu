// Reading one field of an array of structs: the input is n records of
// `stride` floats, and thread i reads field y (word 1) of record i, as code
// reading p[i].y from an array of {x, y, z, w} does. One useful word in every
// `stride`: read_strided's sector waste, shifted one word. Runs like
// strided's stride variant (read_strided in kernels/strided.cu); it reads y
// where the check expects x, so it is unverified (at stride 1 it reads field
// 0 and verifies).
//
// The CUDA form of ../aos_field_read.cl, line for line.

extern "C" __global__ void aos_field_read(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t field = stride > 1 ? 1 : 0;

	out[i] = a[i * (size_t)stride + field];
}
