// A strided shared-memory read with one word of padding per 32 threads (the
// padding trick of the CUDA scan and transpose samples, applied to a stride
// c): thread lid reads s[lid * c + lid / 32 + (it & 31)], wrapped into the
// buffer. One shared read per iteration. The pad moves a whole warp one bank
// over (its 32 threads share lid / 32) without moving its lanes against each
// other, so the conflicts stay gcd(c, 32)-way: padding per warp instead of
// per row does not help. Runs like banks' stride variant (bank_stride in
// kernels/banks.cu); unverified.
//
// The CUDA form of ../banks_padded_stride.cl, line for line. The __local
// float *s parameter is the block's dynamic shared memory (extern __shared__
// float s[], sized by the harness), so the signature is
// (float *out, int c, int iters).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 128
#endif

extern __shared__ float s[];

extern "C" __global__ void banks_padded_stride(float *out, int c, int iters)
{
	int lid = threadIdx.x;
	int words = LOCAL_SIZE * c + 32;

	for (int w = lid; w < words; w += LOCAL_SIZE)
		s[w] = (float)(w & 255);
	__syncthreads();
	volatile float *vs = s;
	float acc = 0.0f;
	int base = (lid * c + lid / 32) % words;

	for (int it = 0; it < iters; it++) {
		int w = base + (it & 31);

		acc += vs[w >= words ? w - words : w];
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
