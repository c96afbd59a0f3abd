// A gather random only within a 4 KiB page that moves with the work-group (as
// a gather through indices that a per-block sort or binning has kept local
// does): work-item i reads a word of the 1024-float page holding a[i *
// stride], picked by the same murmur-style hash of i as hashed_gather's. At
// stride 4 and 256 work-items a group's page is its own 4 KiB, and the
// groups together cover a. Access: a warp's 32 loads in (nearly) 32
// unrelated sectors, but all within one page the group's other warps also
// read: the group's 256 loads fall on the page's 128 sectors. hashed_gather is the same
// gather spread over all of a. Runs like strided's stride variant;
// unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define PAGE 1024	/* floats: 4 KiB */

uint mix32(uint x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void gather_page_4k(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	ulong len = (ulong)get_global_size(0) * (ulong)stride;	/* a's floats */
	ulong base = (ulong)i * (ulong)stride / PAGE * PAGE;
	ulong span = min((ulong)PAGE, len - base);	/* a short last page */

	out[i] = a[base + (ulong)mix32((uint)i) % span];
}
