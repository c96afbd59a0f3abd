// A gather through a hash: work-item i reads element (i * 2654435761) mod
// count, so a warp's 32 loads land in 32 different sectors, as a gather
// through a random index array would; the store stays coalesced. Runs like
// copy's float variant (the same arguments and launch).
__kernel void gather(__global const float *in, __global float *out, uint count)
{
	uint i = get_global_id(0);
	if (i < count)
		out[i] = in[(i * 2654435761u) % count];
}
