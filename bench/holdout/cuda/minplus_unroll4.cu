// Seed 002's v1 with its k loop unrolled by four into four independent minima,
// the chapter's next step: more independent work per iteration, so the loads
// for later k need not wait on the minimum of earlier ones. The minimum does
// not depend on the order, so it verifies. Accesses as v1's: per k, one word
// of row j that the warp shares and a coalesced row segment of d, four k at
// a time. Runs like minplus's v1 variant (v1 in kernels/minplus.cu).
//
// The CUDA form of ../minplus_unroll4.cl, line for line (min on floats is
// fminf, INFINITY 1.0f / 0.0f).

#define WL_INFINITY (1.0f / 0.0f)

extern "C" __global__ void minplus_unroll4(float *r, const float *d, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;

	if (i >= n || j >= n)
		return;
	const float *row = d + (size_t)n * j;
	float m0 = WL_INFINITY, m1 = WL_INFINITY, m2 = WL_INFINITY, m3 = WL_INFINITY;
	int k = 0;

	for (; k + 3 < n; k += 4) {
		m0 = fminf(m0, row[k] + d[(size_t)n * k + i]);
		m1 = fminf(m1, row[k + 1] + d[(size_t)n * (k + 1) + i]);
		m2 = fminf(m2, row[k + 2] + d[(size_t)n * (k + 2) + i]);
		m3 = fminf(m3, row[k + 3] + d[(size_t)n * (k + 3) + i]);
	}
	for (; k < n; k++)
		m0 = fminf(m0, row[k] + d[(size_t)n * k + i]);
	r[(size_t)n * j + i] = fminf(fminf(m0, m1), fminf(m2, m3));
}
