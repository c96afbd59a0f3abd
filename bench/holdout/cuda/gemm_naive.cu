// PolyBench/GPU's naive gemm: r = 1.5 d d + 1.2 d (its C = alpha A B + beta C
// with every matrix d), one output per thread, the first grid index along a
// row. Per k, one word of row j that the warp shares and a coalesced row
// segment of d, as min-plus's v1; then one more load and the store. Runs like
// minplus's v1 variant (v1 in kernels/minplus.cu); an ordinary product, not
// a min-plus one, so unverified.
//
// The CUDA form of ../gemm_naive.cl, line for line.

extern "C" __global__ void gemm_naive(float *r, const float *d, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;

	if (i >= n || j >= n)
		return;
	float sum = 0.0f;

	for (int k = 0; k < n; k++)
		sum += d[(size_t)n * j + k] * d[(size_t)n * k + i];
	r[(size_t)n * j + i] = 1.5f * sum + 1.2f * d[(size_t)n * j + i];
}
