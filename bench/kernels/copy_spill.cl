// A copy that spills registers on purpose, for the compiler's account
// (issue 25): it keeps 300 floats live per work-item, more than the 255
// registers ptxas may give, so they go to the stack ("spill stores/loads").
// Its output is its input (the kept values are multiplied by zero), so it
// verifies as the float copy does; it is slow for a reason no access model
// shows.
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define KEEP 300
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void copy_spill(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	float a[KEEP];
	if (i >= count)
		return;
#pragma unroll
	for (int j = 0; j < KEEP; j++)
		a[j] = in[(i + (size_t)j * 977) % count];
	for (int r = 0; r < 4; r++) {
#pragma unroll
		for (int j = 0; j < KEEP; j++)
			a[j] = a[j] * a[(j + 1) % KEEP] + in[(i + r) % count];
	}
	float s = 0;
#pragma unroll
	for (int j = 0; j < KEEP; j++)
		s += a[j];
	out[i] = s * 0.0f + in[i];
}
