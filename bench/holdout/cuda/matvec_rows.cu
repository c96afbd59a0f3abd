// A matrix-vector product with one row per thread, y = A x as PolyBench/GPU's
// atax, 2mm and mvt compute it: A is the first vector seen as `items` rows of
// k = n / items floats, x the first k floats of the second. Each thread walks
// its own row, so a warp's loads are k floats apart (32 sectors per request),
// while the whole warp reads the same word of x at once (one broadcast
// sector). Runs like dot's coalesced variant (CoalescedDot in
// kernels/dot.cu); it is not a dot product, so unverified.
//
// The CUDA form of ../matvec_rows.cl, line for line (KK a const int *).

extern "C" __global__ void matvec_rows(const float *v1, const float *v2, float *resps, const int *KK)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	int k = KK[0];
	const float *row = v1 + i * (size_t)k;
	float sum = 0.0f;

	for (int j = 0; j < k; j++)
		sum += row[j] * v2[j];
	resps[i] = sum;
}
