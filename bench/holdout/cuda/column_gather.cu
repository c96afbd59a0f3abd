// A column-order walk of a row-major matrix: the input seen as
// R = n / LOCAL_SIZE rows of W = stride * LOCAL_SIZE floats, read down its
// columns, thread i reading row i % R of column i / R. Neighbouring threads
// are W floats apart (one useful word per sector) and the column changes only
// every R threads. Runs like strided's stride variant (read_strided in
// kernels/strided.cu); unverified. n is a multiple of LOCAL_SIZE and
// column < LOCAL_SIZE <= W, so every index is below R * W = n * stride.
//
// The CUDA form of ../column_gather.cl, line for line.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

extern "C" __global__ void column_gather(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t rows = ((size_t)gridDim.x * blockDim.x) / LOCAL_SIZE;
	size_t width = (size_t)stride * LOCAL_SIZE;
	size_t row = i % rows, column = i / rows;

	out[i] = a[row * width + column];
}
