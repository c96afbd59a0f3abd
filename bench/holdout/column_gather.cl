// A strided gather in column order: the input seen as R = n / LOCAL_SIZE rows
// of W = stride * LOCAL_SIZE floats, read down its columns — work-item i reads
// row i % R, column i / R — as a column-major walk of a row-major matrix
// does. Access: neighbouring work-items W floats apart, one useful word per
// sector, and the column index moves only every R work-items. Runs like
// strided's stride variant; unverified. (n is a multiple of LOCAL_SIZE, and
// column < LOCAL_SIZE <= W keeps every index below R * W = n * stride.)

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void column_gather(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	size_t rows = get_global_size(0) / LOCAL_SIZE;
	size_t width = (size_t)stride * LOCAL_SIZE;
	size_t row = i % rows, column = i / rows;

	out[i] = a[row * width + column];
}
