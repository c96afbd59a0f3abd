// A 1-D 7-point stencil (a radius-3 smoothing filter, the wider sibling of
// PolyBench's jacobi-1d): out[i] is a weighted sum of a[i + offset - 3 ..
// i + offset + 3], each index clamped to the n + offset floats of the input.
// Access: seven overlapping unit-stride reads and one write per work-item.
// Runs like offset's offset variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define RADIUS 3

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void stencil7_1d(__global const float *a, __global float *out, int offset)
{
	long i = (long)get_global_id(0);
	long last = (long)get_global_size(0) + offset - 1;
	float acc = 0.0f;

	for (int k = -RADIUS; k <= RADIUS; k++) {
		long j = i + offset + k;

		j = j < 0 ? 0 : (j > last ? last : j);
		acc += a[j] * (1.0f / (2 + k * k));
	}
	out[i] = acc;
}
