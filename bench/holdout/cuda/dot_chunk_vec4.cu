// A chunked dot product read four floats at a time: thread i multiplies its
// own contiguous chunk of n / items elements (NaiveDot's split) with 16-byte
// loads as far as the chunk allows, the rest one float at a time. Each thread
// streams its chunk and neighbours are a chunk apart, so a warp's 16-byte
// loads touch 32 sectors per request. The partials add up to the dot
// product: it verifies. Runs like dot's naive variant (NaiveDot in
// kernels/dot.cu, NN = n).
//
// The CUDA form of ../dot_chunk_vec4.cl: vload4 is a float4 load, the float4
// multiply-add is written out field by field, NN is a const int *. One necessary
// difference: a CUDA float4 load must be 16-byte aligned and OpenCL's vload4
// need not be, so the float4 loop runs only when the chunk starts on a
// multiple of 4 floats; otherwise the whole chunk is read one float at a
// time. At the plans' sizes every chunk (16 or 1024 floats) is aligned and
// this is the OpenCL form's access, load for load.

extern "C" __global__ void dot_chunk_vec4(const float *v1, const float *v2, float *resps, const int *NN)
{
	size_t n = (size_t)NN[0];
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, items = (size_t)gridDim.x * blockDim.x;
	size_t begin = n * i / items, end = n * (i + 1) / items;
	float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
	size_t j = begin;

	if (begin % 4 == 0) {
		for (; j + 4 <= end; j += 4) {
			float4 a = *(const float4 *)(v1 + j), b = *(const float4 *)(v2 + j);

			acc.x += a.x * b.x;
			acc.y += a.y * b.y;
			acc.z += a.z * b.z;
			acc.w += a.w * b.w;
		}
	}
	for (; j < end; j++)
		acc.x += v1[j] * v2[j];
	resps[i] = (acc.x + acc.y) + (acc.z + acc.w);
}
