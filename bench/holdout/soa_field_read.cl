// A struct-of-arrays read: the same n * stride floats seen as `stride`
// arrays of n (field f of record i at a[f * n + i]); work-item i adds fields
// x and y of its record. Access: two unit-stride streams n floats apart,
// every sector fully used. Runs like strided's stride variant; unverified
// (it reads a different layout than the check's).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void soa_field_read(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	size_t n = get_global_size(0);
	float x = a[i];
	float y = stride > 1 ? a[n + i] : 0.0f;

	out[i] = x + y;
}
