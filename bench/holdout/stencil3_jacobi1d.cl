// After PolyBench/GPU jacobi-1d: B[i] = (A[i-1] + A[i] + A[i+1]) / 3.
// Access: three overlapping unit-stride reads per work-item (the neighbours'
// lines are shared by the warp), one write. The ends are clamped, so no read
// leaves the buffer. Runs like copy's float variant; it does not copy, so the
// result is marked unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void stencil3_jacobi1d(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);

	if (i >= count)
		return;
	size_t left = i > 0 ? i - 1 : 0;
	size_t right = i + 1 < count ? i + 1 : count - 1;

	out[i] = (in[left] + in[i] + in[right]) * (1.0f / 3.0f);
}
