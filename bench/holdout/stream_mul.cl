// After BabelStream's Mul (b[i] = scalar * c[i]): one read stream, one write
// stream, a multiply between them. Access: unit stride, one float in and one
// out per work-item. Runs like copy's float variant.
//
// The copy check wants out == in, so the scalar is 1 — but formed from count
// at run time, so the compiler cannot drop the multiply.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void stream_mul(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	float scalar = (float)(count > 0u);

	if (i < count)
		out[i] = scalar * in[i];
}
