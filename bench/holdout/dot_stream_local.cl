// After BabelStream's Dot: a grid-stride loop over the two vectors as float4s
// across all work-items, then a tree in local memory and one partial sum per
// group. Access: two 16-byte coalesced loads per iteration, consecutive
// iterations a whole grid apart; the sequential tree. The partials add up to
// the dot product, so it verifies. Runs like dot's local variant.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void dot_stream_local(__global const float *v1, __global const float *v2,
		      __global float *resps, __constant int *KK)
{
	__local float sums[LOCAL_SIZE];
	size_t items = get_global_size(0);
	size_t n = (size_t)KK[0] * items;	/* n is a multiple of items */
	size_t quads = n / 4;
	unsigned tid = get_local_id(0);
	float4 acc = 0.0f;

	for (size_t q = get_global_id(0); q < quads; q += items)
		acc += vload4(q, v1) * vload4(q, v2);
	/* n is a multiple of items, itself of LOCAL_SIZE >= 32: no tail, but
	 * a smaller launch would leave up to three elements, added here. */
	for (size_t j = quads * 4 + get_global_id(0); j < n; j += items)
		acc.x += v1[j] * v2[j];
	sums[tid] = acc.x + acc.y + acc.z + acc.w;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (unsigned s = LOCAL_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		resps[get_group_id(0)] = sums[0];
}
