// A struct-of-arrays to array-of-structs conversion written record by record
// (as code packing FIELDS separate component arrays into records of FIELDS
// floats does): the input is FIELDS arrays of count / FIELDS floats, one
// after the other, and work-item i copies element r of array f (i = f *
// records + r) to word f of record r. Access: coalesced loads; a warp's
// stores fall one 4-byte word in each of 32 sectors, FIELDS words apart, and
// the other words of those sectors are written by work-items `records` away:
// by work-groups that run long before or after, so nothing completes a
// sector while it is in a cache (at the far point a pass over one field
// spans 256 MiB). Runs like copy's float variant; it moves every element, but
// not in place, so it is unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define FIELDS 8

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void soa_to_aos_write(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	size_t records = count / FIELDS;

	if (i >= count)
		return;
	/* The tail past whole records (none at the plans' sizes) stays put. */
	size_t o = i < records * FIELDS ? (i % records) * FIELDS + i / records : i;

	out[o] = in[i];
}
