// vload4 from a misaligned source (the textbook case of a vector load whose
// address is not a multiple of 16 bytes): work-items below n / 4 each load
// four floats at a + offset + 4i with vload4 and store them with vstore4; the
// rest of the launch idles. Access: 16-byte loads shifted by `offset` words,
// so with offset 1 every load straddles two 16-byte slots, and each warp's
// block spills into one more sector; aligned 16-byte stores. It copies what
// read_offset copies, so it verifies. Runs like offset's offset variant.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void vload4_misaligned(__global const float *a, __global float *out, int offset)
{
	size_t i = get_global_id(0);
	size_t quads = get_global_size(0) / 4;	/* n is a multiple of 256 */

	if (i < quads)
		vstore4(vload4(i, a + offset), i, out);
}
