// A copy driven by a 16-entry permutation table, as a table-driven shuffle or
// bit reversal is: thread i looks up table[i % 16] and copies element
// 16 * (i / 16) + table[i % 16] in place, so the copy verifies. Global loads
// and stores are permuted within 64-byte blocks and touch the same sectors as
// a plain copy. Runs like copy's float variant (copy_float in
// kernels/copy.cu).
//
// The CUDA form of ../lut_constant_copy.cl: the table is a __constant__
// array, as the OpenCL one is a program-scope __constant array.

__constant__ unsigned char block_order[16] = { 5, 12, 0, 9, 3, 14, 7, 1, 10, 15, 2, 8, 13, 4, 11, 6 };

extern "C" __global__ void lut_constant_copy(const float *in, float *out, unsigned int count)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t j = (i & ~(size_t)15) + block_order[i & 15];

	/* The grid covers count rounded up to a block (a multiple of 16), so
	 * every j < count has its thread; the others write nothing. */
	if (j < count)
		out[j] = in[j];
}
