// Reading a whole record of an array of structs to use one field: with
// records of at least four floats, thread i loads the first four words of
// record i at once (a struct passed by value), keeps x, and checks that the
// other three fields are finite, like a record with a validity test. 16 bytes
// read per `stride` words, one float written; it writes field x, as
// read_strided does, so it verifies. Records shorter than four floats are
// read one word. Runs like strided's stride variant (read_strided in
// kernels/strided.cu).
//
// The CUDA form of ../aos_whole_record.cl: vload4 is a float4 load. isfinite
// and NAN have no place in the constructs these forms may use, so finiteness
// is |x| <= FLT_MAX (false for infinities and NaN) and the NaN is 0.0f / 0.0f.
// One necessary difference: a CUDA float4 load must be 16-byte aligned and
// OpenCL's vload4 need not be, so where stride is not a multiple of 4 the
// record's four words are read with four 4-byte loads. At the plans' stride
// of 4 it is the OpenCL form's one 16-byte load.

#define WL_FLT_MAX 3.402823466e+38f
#define WL_NAN (0.0f / 0.0f)

extern "C" __global__ void aos_whole_record(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	const float *record = a + i * (size_t)stride;

	if (stride < 4) {
		out[i] = record[0];
		return;
	}
	if (stride % 4 != 0) {	/* not 16-byte aligned: the four words one by one */
		out[i] = fabsf(record[1] + record[2] + record[3]) <= WL_FLT_MAX ? record[0] : WL_NAN;
		return;
	}
	float4 r = *(const float4 *)record;

	out[i] = fabsf(r.y + r.z + r.w) <= WL_FLT_MAX ? r.x : WL_NAN;
}
