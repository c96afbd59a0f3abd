// After the scalar CSR sparse matrix-vector product (one row per work-item,
// as Parboil's and SHOC's spmv baselines do): row i's `stride` entries are
// stored together at a[i * stride .. i * stride + stride), its columns lie in
// a band around the diagonal (col = i + 37 k - 37 stride / 2, wrapped modulo
// n), and x is the input's first n floats. Access: each work-item walks its
// own row (neighbours `stride` floats apart), the x loads nearly coalesce.
// Runs like strided's stride variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define BAND_STEP 37

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void spmv_csr_row(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	long n = (long)get_global_size(0);
	__global const float *row = a + i * (size_t)stride;
	float sum = 0.0f;

	for (int k = 0; k < stride; k++) {
		long col = ((long)i + (long)BAND_STEP * (k - stride / 2)) % n;

		col = col < 0 ? col + n : col;
		sum += row[k] * a[col];
	}
	out[i] = sum;
}
