// BabelStream's Dot: a grid-stride loop over both vectors as float4s across
// every thread, then a tree in shared memory and one partial sum per block.
// Two 16-byte coalesced loads per iteration, successive iterations a whole
// grid apart, then the sequential tree. The partials add up to the dot
// product, so it verifies. Runs like dot's local variant (CoalLocalDot in
// kernels/dot.cu).
//
// The CUDA form of ../dot_stream_local.cl, line for line: the __constant int
// *KK is a const int * (as in the twin), vload4(q, v) is
// ((const float4 *)v)[q], and the float4 multiply-add is written out field by
// field (CUDA's float4 has no arithmetic).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

extern "C" __global__ void dot_stream_local(const float *v1, const float *v2, float *resps, const int *KK)
{
	__shared__ float sums[LOCAL_SIZE];
	size_t items = (size_t)gridDim.x * blockDim.x;
	size_t n = (size_t)KK[0] * items;	/* n is a multiple of items */
	size_t quads = n / 4;
	unsigned tid = threadIdx.x;
	float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

	for (size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x; q < quads; q += items) {
		float4 a = ((const float4 *)v1)[q], b = ((const float4 *)v2)[q];

		acc.x += a.x * b.x;
		acc.y += a.y * b.y;
		acc.z += a.z * b.z;
		acc.w += a.w * b.w;
	}
	/* n is a multiple of items, itself of LOCAL_SIZE >= 32: no tail, but
	 * a smaller launch would leave up to three elements, added here. */
	for (size_t j = quads * 4 + blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += items)
		acc.x += v1[j] * v2[j];
	sums[tid] = acc.x + acc.y + acc.z + acc.w;
	__syncthreads();
	for (unsigned s = LOCAL_SIZE / 2; s > 0; s /= 2) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		resps[blockIdx.x] = sums[0];
}
