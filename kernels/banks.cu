// Shared-memory bank conflicts in CUDA (seed 003, "Access Patterns"; seed 001,
// "array of structs vs struct of arrays"), the twins of banks.cl. Each thread
// reads shared memory iters times and sums what it reads, its variant's
// pattern shifted by (it & 31) each iteration, through a volatile pointer so
// that the reads are made. s is the block's dynamic shared memory, sized by
// the host at launch (blockDim.x * c + 32 words: banks.cl's local argument).
// LOCAL_SIZE, the block size, is declared to the compiler (__launch_bounds__).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 128
#endif

extern __shared__ float s[];

// Fill s with each word's own index, so every read has a known value.
__device__ static void fill_words(float *w, int words)
{
	for (int i = threadIdx.x; i < words; i += blockDim.x)
		w[i] = (float)i;
	__syncthreads();
}

// Stride c: s[threadIdx.x * c]. "Interleaving does not create conflicts if c
// is odd"; with c even the warp's words fall into gcd(c, 32)-deep piles.
extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
bank_stride(float *out, int c, int iters)
{
	int lid = threadIdx.x;
	int words = blockDim.x * c + 32;

	fill_words(s, words);
	volatile float *vs = s;
	float acc = 0.0f;
	int base = lid * c;

	for (int it = 0; it < iters; it++)
		acc += vs[base + (it & 31)];
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Broadcast: s[lid % c]; threads reading the same word share one read.
extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
bank_broadcast(float *out, int c, int iters)
{
	int lid = threadIdx.x;
	int words = blockDim.x * c + 32;

	fill_words(s, words);
	volatile float *vs = s;
	float acc = 0.0f;
	int base = lid % c;

	for (int it = 0; it < iters; it++)
		acc += vs[base + (it & 31)];
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Array of structs of c words: thread lid reads each field f of its own
// struct, s[lid * c + f]: the same piles as stride c.
extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
bank_struct(float *out, int c, int iters)
{
	int lid = threadIdx.x;
	int words = blockDim.x * c + 32;

	fill_words(s, words);
	volatile float *vs = s;
	float acc = 0.0f;
	int f = 0;

	for (int it = 0; it < iters; it++) {
		acc += vs[lid * c + f + (it & 31)];
		f = f + 1 == c ? 0 : f + 1;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The same c fields as a struct of arrays: s[f * size + lid].
extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
bank_soa(float *out, int c, int iters)
{
	int lid = threadIdx.x;
	int size = blockDim.x;
	int words = size * c + 32;

	fill_words(s, words);
	volatile float *vs = s;
	float acc = 0.0f;
	int f = 0;

	for (int it = 0; it < iters; it++) {
		acc += vs[f * size + lid + (it & 31)];
		f = f + 1 == c ? 0 : f + 1;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
