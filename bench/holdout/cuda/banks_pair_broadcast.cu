// Two threads sharing one struct in shared memory: threads 2m and 2m + 1 both
// read s[m * c + (it & 31)], as two lanes reading one shared record do. One
// shared read per iteration; a word read by two lanes counts once, so a warp
// has 16 distinct words at stride c, max(1, gcd(c, 32) / 2)-way conflicts,
// half of bank_stride's from c = 4 up. Runs like banks' broadcast variant
// (bank_broadcast in kernels/banks.cu); unverified.
//
// The CUDA form of ../banks_pair_broadcast.cl, line for line. The __local
// float *s parameter is the block's dynamic shared memory (extern __shared__
// float s[], sized by the harness), so the signature is
// (float *out, int c, int iters).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 128
#endif

extern __shared__ float s[];

extern "C" __global__ void banks_pair_broadcast(float *out, int c, int iters)
{
	int lid = threadIdx.x;
	int words = LOCAL_SIZE * c + 32;

	for (int w = lid; w < words; w += LOCAL_SIZE)
		s[w] = (float)(w & 255);
	__syncthreads();
	volatile float *vs = s;
	float acc = 0.0f;
	int base = (lid / 2) * c;

	for (int it = 0; it < iters; it++)
		acc += vs[base + (it & 31)];
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
