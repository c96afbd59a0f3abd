// A 16-byte vector load from a misaligned source: threads below n / 4 each
// load the four floats at a + offset + 4i and store them as one 16-byte
// quad at out + 4i; the rest of the grid idles. With offset 1 every load
// straddles two 16-byte slots and a warp's block reaches one sector further.
// It copies what read_offset copies, so it verifies. Runs like offset's
// offset variant (read_offset in kernels/offset.cu).
//
// The CUDA form of ../vload4_misaligned.cl: vstore4 is a float4 store
// (out + 4i is 16-byte aligned). One necessary difference: OpenCL's vload4
// needs only the floats' own alignment, but a CUDA float4 load must be
// 16-byte aligned (a misaligned one faults), so where a + offset is not
// (offset not a multiple of 4, as in the plans' offset 1) the four floats are
// read with four 4-byte loads of the same 16 bytes. Where it is aligned, it
// is the OpenCL form's one 16-byte load.

extern "C" __global__ void vload4_misaligned(const float *a, float *out, int offset)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t quads = ((size_t)gridDim.x * blockDim.x) / 4;	/* n is a multiple of 256 */

	if (i >= quads)
		return;
	const float *p = a + offset + 4 * i;

	if (offset % 4 != 0) {	/* not 16-byte aligned: four 4-byte loads */
		((float4 *)out)[i] = make_float4(p[0], p[1], p[2], p[3]);
		return;
	}
	((float4 *)out)[i] = *(const float4 *)p;
}
