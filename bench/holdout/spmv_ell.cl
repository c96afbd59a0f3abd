// After Parboil's spmv (its JDS/ELL layout): a sparse matrix of n rows with
// `stride` stored entries each, kept column-major (entry k of row i at
// val[k * n + i], so a warp's value loads coalesce), times a vector x. The
// column of each entry is a hash of (i, k) modulo n and x is the input's
// first n floats: the x[col] loads are the gather. Work-item i forms row i's
// sum. Runs like strided's stride variant (the input holds n * stride
// floats: exactly the values); unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmv_ell(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	size_t n = get_global_size(0);
	float sum = 0.0f;

	for (int k = 0; k < stride; k++) {
		float value = a[(size_t)k * n + i];
		uint col = ((uint)i * 0x9E3779B1u + (uint)k * 0x632BE5ABu) % (uint)n;

		sum += value * a[col];
	}
	out[i] = sum;
}
