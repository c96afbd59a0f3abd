// An array-of-structs to AoSoA conversion, a warp pair per field: records are
// `stride` floats, a block of 256 threads takes 64 records, thread t reading
// field t / 64 of record t % 64 and writing it to out[t] of the block's
// block of output. Each warp loads one 4-byte word in each of 32 records (16
// bytes apart at stride 4); the block's 8 warps read its 64 records' 8
// lines, each line by 4 warps, one field each; the store is coalesced. Runs
// like strided's stride variant (read_strided in kernels/strided.cu);
// unverified.
//
// The CUDA form of ../aos_to_aosoa_fields.cl, line for line.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define FIELDS 4
#define RECS (LOCAL_SIZE / FIELDS)	/* records per block */

extern "C" __global__ void aos_to_aosoa_fields(const float *a, float *out, int stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	unsigned t = threadIdx.x;
	size_t record = blockIdx.x * (size_t)RECS + t % RECS;

	out[i] = a[record * stride + t / RECS];
}
