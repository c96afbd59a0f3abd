// A warp per row, lane 0 writing its sum (after Bell and Garland's CSR-vector
// SpMV as SHOC runs it, on dense rows with x all ones): n / 32 rows of 32 *
// stride floats; a row's 32 threads read it in `stride` coalesced passes,
// add their sums in a shared-memory tree within their 32, and the first
// writes out[row]. Coalesced loads over the whole input, then one 4-byte
// store per warp, a block's warps writing neighbouring words. Runs like
// strided's stride variant (read_strided in kernels/strided.cu); out beyond
// n / 32 is not written, so it is unverified.
//
// The CUDA form of ../rowsum_warp_per_row.cl, line for line (the tree
// through shared memory and __syncthreads, not warp shuffles, as there).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define ROW_ITEMS 32	/* threads per row: one warp */

extern "C" __global__ void rowsum_warp_per_row(const float *a, float *out, int stride)
{
	__shared__ float part[LOCAL_SIZE];
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	unsigned l = threadIdx.x, lane = l % ROW_ITEMS;
	size_t row = i / ROW_ITEMS;
	size_t len = (size_t)ROW_ITEMS * stride;	/* floats in a row */
	float sum = 0.0f;

	for (int k = 0; k < stride; k++)
		sum += a[row * len + (size_t)k * ROW_ITEMS + lane];
	part[l] = sum;
	__syncthreads();
	for (unsigned s = ROW_ITEMS / 2; s > 0; s /= 2) {
		if (lane < s)
			part[l] += part[l + s];
		__syncthreads();
	}
	if (lane == 0)
		out[row] = part[l];
}
