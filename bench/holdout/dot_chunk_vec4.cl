// A chunked dot product read with vector loads: work-item i multiplies its
// own contiguous chunk of n / items elements (NaiveDot's split) four at a
// time with vload4 where the chunk allows, the rest one by one. Access: each
// work-item streams its chunk, neighbours a chunk apart, so a warp's 16-byte
// loads touch 32 sectors per request. Its partials add up to the dot product:
// it verifies. Runs like dot's naive variant (NN = n).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void dot_chunk_vec4(__global const float *v1, __global const float *v2,
		    __global float *resps, __constant int *NN)
{
	size_t n = (size_t)NN[0];
	size_t i = get_global_id(0), items = get_global_size(0);
	size_t begin = n * i / items, end = n * (i + 1) / items;
	float4 acc = 0.0f;
	size_t j = begin;

	for (; j + 4 <= end; j += 4)
		acc += vload4(0, v1 + j) * vload4(0, v2 + j);
	for (; j < end; j++)
		acc.x += v1[j] * v2[j];
	resps[i] = (acc.x + acc.y) + (acc.z + acc.w);
}
