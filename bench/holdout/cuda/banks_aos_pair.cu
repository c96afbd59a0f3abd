// An array of structs in shared memory with two fields read at once: thread
// lid owns the struct of c words at s[lid * c], and each iteration reads two
// of its fields half a struct apart (as code reading p.x and p.z together
// does), shifted by (it & 31) as the built-ins shift. Two shared reads per
// iteration at the struct's stride c, each gcd(c, 32)-way conflicted, as
// bank_struct's. Runs like banks' struct variant (bank_struct in
// kernels/banks.cu); its sums are its own, so unverified. Every index stays
// below LOCAL_SIZE * c + 31.
//
// The CUDA form of ../banks_aos_pair.cl, line for line. The OpenCL form's
// __local float *s parameter is not a parameter here: it is the block's
// dynamic shared memory, extern __shared__ float s[], sized by the harness at
// launch (4 * (local * c + 32) bytes), as in the twin. So the signature is
// (float *out, int c, int iters): the OpenCL parameters less the local one,
// in the same order.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 128
#endif

extern __shared__ float s[];

extern "C" __global__ void banks_aos_pair(float *out, int c, int iters)
{
	int lid = threadIdx.x;
	int words = LOCAL_SIZE * c + 32;

	for (int w = lid; w < words; w += LOCAL_SIZE)
		s[w] = (float)(w & 255);
	__syncthreads();
	/* volatile: nothing writes s in the loop, and every read must happen. */
	volatile float *vs = s;
	float acc = 0.0f;
	int f = 0, g = c / 2;

	for (int it = 0; it < iters; it++) {
		int base = lid * c + (it & 31);

		acc += vs[base + f] + vs[base + g];
		f = f + 1 == c ? 0 : f + 1;
		g = g + 1 == c ? 0 : g + 1;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
