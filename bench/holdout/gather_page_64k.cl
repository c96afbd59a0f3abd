// A gather random only within a 64 KiB window that moves along the array (as
// a cell-sorted particle list's neighbour reads, or a texture fetch's
// footprint, stay near): work-item i reads a word of the 16384-float window
// holding element i, picked by a murmur-style hash of i. Sixty-four
// neighbouring work-groups share a window. Access: a warp's 32 loads in
// (nearly) 32 unrelated sectors of 2048, all within the window the
// neighbouring groups read too; the store is coalesced. gather_whole_buffer
// is the same gather over the whole input. Runs like copy's float variant;
// unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define WINDOW 16384	/* floats: 64 KiB */

uint mix32(uint x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void gather_page_64k(__global const float *in, __global float *out, uint count)
{
	uint i = (uint)get_global_id(0);

	if (i >= count)
		return;
	uint base = i / WINDOW * WINDOW;
	uint span = min((uint)WINDOW, count - base);	/* a short last window */

	out[i] = in[base + mix32(i) % span];
}
