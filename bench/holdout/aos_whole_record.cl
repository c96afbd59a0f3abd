// An array-of-structs record read whole: with records of at least four
// floats, work-item i loads the first four words of record i with one vload4
// (a struct passed by value), keeps x and checks that the other fields are
// finite, as a record with a validity test does. Access: 16 bytes read per
// `stride` words, one float written. It writes field x, which is what
// read_strided writes, so it verifies. Runs like strided's stride variant;
// records shorter than four floats are read one word at a time.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void aos_whole_record(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	__global const float *record = a + i * (size_t)stride;

	if (stride < 4) {
		out[i] = record[0];
		return;
	}
	float4 r = vload4(0, record);

	out[i] = isfinite(r.y + r.z + r.w) ? r.x : NAN;
}
