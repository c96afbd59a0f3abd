// An array-of-structs field read: the input is n records of `stride` floats
// and work-item i reads field y (word 1) of record i, as code reading p[i].y
// from an array of {x, y, z, w} does. Access: one useful word in every
// `stride`, the same sector waste as read_strided but one word further on.
// Runs like strided's stride variant; it reads y where the check wants x, so
// it is unverified (at stride 1 it reads field 0 and verifies).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void aos_field_read(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	size_t field = stride > 1 ? 1 : 0;

	out[i] = a[i * (size_t)stride + field];
}
