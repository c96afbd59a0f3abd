// A lookup table in __constant memory: each block of 16 elements is visited
// in the order a 16-entry permutation table gives, as a shuffle or a
// bit-reversal driven by a table does. Work-item i reads table[i % 16] and
// copies element 16 * (i / 16) + table[i % 16] in place, so the copy
// verifies. Access: a __constant read whose 16 distinct words a warp asks for
// at once, then global loads and stores permuted within 64-byte blocks (the
// same sectors as a plain copy). Runs like copy's float variant.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__constant uchar block_order[16] = { 5, 12, 0, 9, 3, 14, 7, 1, 10, 15, 2, 8, 13, 4, 11, 6 };

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void lut_constant_copy(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	size_t j = (i & ~(size_t)15) + block_order[i & 15];

	/* The launch covers count rounded up to a work-group (a multiple of 16),
	 * so every j < count has its work-item; the others write nothing. */
	if (j < count)
		out[j] = in[j];
}
