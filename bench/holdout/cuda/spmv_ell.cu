// Parboil's spmv in its JDS/ELL layout: a sparse matrix of n rows with
// `stride` stored entries each, column-major (entry k of row i at
// val[k * n + i], so a warp's value loads coalesce), times a vector x. Each
// entry's column is a hash of (i, k) modulo n and x is the input's first n
// floats, so the x[col] loads are the gather. Thread i sums row i. Runs like
// strided's stride variant (read_strided in kernels/strided.cu; the input's
// n * stride floats are exactly the values); unverified.
//
// The CUDA form of ../spmv_ell.cl, line for line.

extern "C" __global__ void spmv_ell(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t n = (size_t)gridDim.x * blockDim.x;
	float sum = 0.0f;

	for (int k = 0; k < stride; k++) {
		float value = a[(size_t)k * n + i];
		unsigned int col = ((unsigned int)i * 0x9E3779B1u + (unsigned int)k * 0x632BE5ABu) % (unsigned int)n;

		sum += value * a[col];
	}
	out[i] = sum;
}
