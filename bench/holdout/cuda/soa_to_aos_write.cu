// A struct-of-arrays to array-of-structs conversion written record by record:
// the input is FIELDS arrays of count / FIELDS floats one after the other,
// and thread i copies element r of array f (i = f * records + r) to word f of
// record r. Coalesced loads; a warp's stores one 4-byte word in each of 32
// sectors, FIELDS words apart, whose other words come from threads `records`
// away, in blocks that run long before or after. Runs like copy's float
// variant (copy_float in kernels/copy.cu); not in place, so unverified.
//
// The CUDA form of ../soa_to_aos_write.cl, line for line.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define FIELDS 8

extern "C" __global__ void soa_to_aos_write(const float *in, float *out, unsigned int count)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t records = count / FIELDS;

	if (i >= count)
		return;
	/* The tail past whole records (none at the plans' sizes) stays put. */
	size_t o = i < records * FIELDS ? (i % records) * FIELDS + i / records : i;

	out[o] = in[i];
}
