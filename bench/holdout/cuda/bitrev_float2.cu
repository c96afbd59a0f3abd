// The bit-reversal reorder of a radix-2 FFT on float2 complex numbers: element
// i moves to the index whose low `bits` bits are i's reversed, 2^bits the
// largest power of two in count (the rest stay put). The reversal is Knuth's
// delta swaps on fixed masks (clang makes llvm.bitreverse of the usual
// shift-and-mask form, which Oclgrind cannot run; NVRTC's __brev would be
// the same). Coalesced 8-byte loads; a warp's 32 stores one in each of the
// 32 slices of 2^bits / 32 elements, each in another page at the far point.
// Runs like copy's float2 variant (copy_float2 in kernels/copy.cu);
// unverified.
//
// The CUDA form of ../bitrev_float2.cl, line for line.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

/* Bits 0..31 of x reversed: swap neighbouring bits, pairs, nibbles, bytes,
 * then halves, each swap t = (x >> s ^ x) & m; x ^= t | t << s. */
__device__ unsigned int reverse32(unsigned int x)
{
	unsigned int t;

	t = ((x >> 1) ^ x) & 0x55555555u;
	x ^= t | (t << 1);
	t = ((x >> 2) ^ x) & 0x33333333u;
	x ^= t | (t << 2);
	t = ((x >> 4) ^ x) & 0x0F0F0F0Fu;
	x ^= t | (t << 4);
	t = ((x >> 8) ^ x) & 0x00FF00FFu;
	x ^= t | (t << 8);
	t = ((x >> 16) ^ x) & 0x0000FFFFu;
	return x ^ (t | (t << 16));
}

/* floor(log2(x)) for x >= 1, in five fixed steps (no loop, no clz). */
__device__ unsigned int floor_log2(unsigned int x)
{
	unsigned int b = 0;

	if (x >= 1u << 16) { x >>= 16; b += 16; }
	if (x >= 1u << 8) { x >>= 8; b += 8; }
	if (x >= 1u << 4) { x >>= 4; b += 4; }
	if (x >= 1u << 2) { x >>= 2; b += 2; }
	if (x >= 1u << 1) b += 1;
	return b;
}

extern "C" __global__ void bitrev_float2(const float2 *in, float2 *out, unsigned int count)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= count)
		return;
	unsigned int bits = floor_log2(count);	/* count >= 1: n >= 1024 */
	unsigned int j = i;

	if (bits > 0 && i < (1u << bits))
		j = reverse32(i) >> (32 - bits);
	out[j] = in[i];
}
