// Seed 002's v1 with its k loop unrolled by four into four independent
// minima (the chapter's next step: more independent work per iteration, so
// the loads of later k need not wait for the minimum of earlier ones). The
// minimum does not depend on the order, so it verifies. Access: as v1 — per
// k a broadcast word of row j and a coalesced row segment of d — four k at a
// time. Runs like minplus's v1 variant.

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void minplus_unroll4(__global float *r, __global const float *d, int n)
{
	int i = get_global_id(0);
	int j = get_global_id(1);

	if (i >= n || j >= n)
		return;
	__global const float *row = d + (size_t)n * j;
	float m0 = INFINITY, m1 = INFINITY, m2 = INFINITY, m3 = INFINITY;
	int k = 0;

	for (; k + 3 < n; k += 4) {
		m0 = min(m0, row[k] + d[(size_t)n * k + i]);
		m1 = min(m1, row[k + 1] + d[(size_t)n * (k + 1) + i]);
		m2 = min(m2, row[k + 2] + d[(size_t)n * (k + 2) + i]);
		m3 = min(m3, row[k + 3] + d[(size_t)n * (k + 3) + i]);
	}
	for (; k < n; k++)
		m0 = min(m0, row[k] + d[(size_t)n * k + i]);
	r[(size_t)n * j + i] = min(min(m0, m1), min(m2, m3));
}
