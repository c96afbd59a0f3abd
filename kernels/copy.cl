// The copy experiment: each work-item copies one element, read once and written
// once, with scalar, 2-wide and 4-wide loads. The fastest of the three is the
// device's bandwidth ceiling; every other result is also shown as a share of it
// (seed 003 uses a plain copy the same way: "as good as simple copying").
//
// count is the number of elements of the kernel's own type (n / width); the
// global size is rounded up to a whole work-group, hence the bound check.
// Each kernel declares the work-group size it is launched with
// (reqd_work_group_size), so the compiler knows it.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void copy_float(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	if (i < count)
		out[i] = in[i];
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void copy_float2(__global const float2 *in, __global float2 *out, uint count)
{
	size_t i = get_global_id(0);
	if (i < count)
		out[i] = in[i];
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void copy_float4(__global const float4 *in, __global float4 *out, uint count)
{
	size_t i = get_global_id(0);
	if (i < count)
		out[i] = in[i];
}
