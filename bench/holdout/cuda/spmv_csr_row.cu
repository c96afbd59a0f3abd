// The scalar CSR sparse matrix-vector product of Parboil's and SHOC's
// baselines, one row per thread: row i's `stride` entries lie together at
// a[i * stride ..], their columns in a band around the diagonal
// (col = i + 37 k - 37 stride / 2, wrapped modulo n), and x is the input's
// first n floats. Each thread walks its own row (neighbours `stride` floats
// apart); the x loads nearly coalesce. Runs like strided's stride variant
// (read_strided in kernels/strided.cu); unverified.
//
// The CUDA form of ../spmv_csr_row.cl, line for line: long is long long.

#define BAND_STEP 37

extern "C" __global__ void spmv_csr_row(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	long long n = (long long)((size_t)gridDim.x * blockDim.x);
	const float *row = a + i * (size_t)stride;
	float sum = 0.0f;

	for (int k = 0; k < stride; k++) {
		long long col = ((long long)i + (long long)BAND_STEP * (k - stride / 2)) % n;

		col = col < 0 ? col + n : col;
		sum += row[k] * a[col];
	}
	out[i] = sum;
}
