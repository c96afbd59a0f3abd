// The coalesced dot product unrolled by four into four independent
// accumulators, the usual cure for a loop-carried add: thread i still reads
// elements i, i + items, i + 2 items, ..., but four loads of each vector are
// in flight at once. Unit stride across a warp, as CoalescedDot. Each
// thread's partial is CoalescedDot's, so it verifies. Runs like dot's
// coalesced variant (CoalescedDot in kernels/dot.cu).
//
// The CUDA form of ../dot_unroll4.cl, line for line (KK a const int *).

extern "C" __global__ void dot_unroll4(const float *v1, const float *v2, float *resps, const int *KK)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t items = (size_t)gridDim.x * blockDim.x;
	int k = KK[0];
	float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
	int j = 0;

	for (; j + 3 < k; j += 4) {
		size_t at = i + (size_t)j * items;

		a0 += v1[at] * v2[at];
		a1 += v1[at + items] * v2[at + items];
		a2 += v1[at + 2 * items] * v2[at + 2 * items];
		a3 += v1[at + 3 * items] * v2[at + 3 * items];
	}
	for (; j < k; j++) {
		size_t at = i + (size_t)j * items;

		a0 += v1[at] * v2[at];
	}
	resps[i] = (a0 + a1) + (a2 + a3);
}
