// PolyBench/GPU's gesummv, y = alpha A x + beta B x, one output per thread
// walking down one column of each matrix: A and B are the two vectors, each
// seen as k = n / items rows of `items` floats (thread i owns column i), and
// x is the first k floats of the second vector. Per step, two coalesced row
// segments (one of A, one of B) and one broadcast word of x. Runs like dot's
// coalesced variant (CoalescedDot in kernels/dot.cu); unverified.
//
// The CUDA form of ../gesummv_cols.cl, line for line (KK a const int *).

extern "C" __global__ void gesummv_cols(const float *v1, const float *v2, float *resps, const int *KK)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, items = (size_t)gridDim.x * blockDim.x;
	int k = KK[0];
	float ax = 0.0f, bx = 0.0f;

	for (int j = 0; j < k; j++) {
		float x = v2[j];
		size_t at = (size_t)j * items + i;

		ax += v1[at] * x;
		bx += v2[at] * x;
	}
	resps[i] = 1.5f * ax + 1.2f * bx;
}
