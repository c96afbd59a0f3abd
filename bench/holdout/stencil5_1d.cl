// A 1-D 5-point stencil (the radius-2 case of PolyBench's jacobi-1d family):
// out[i] is a weighted sum of a[i + offset - 2 .. i + offset + 2]. The input
// holds n + offset floats, so the offset is the stencil's left margin; every
// index is clamped to it. Access: five overlapping unit-stride reads and one
// write per work-item. Runs like offset's offset variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define RADIUS 2

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void stencil5_1d(__global const float *a, __global float *out, int offset)
{
	long i = (long)get_global_id(0);
	long last = (long)get_global_size(0) + offset - 1;	/* a's last index */
	float acc = 0.0f;

	for (int k = -RADIUS; k <= RADIUS; k++) {
		long j = i + offset + k;

		j = j < 0 ? 0 : (j > last ? last : j);
		acc += a[j] * (k == 0 ? 0.4f : (k == -1 || k == 1 ? 0.2f : 0.1f));
	}
	out[i] = acc;
}
