// A strided local read with one word of padding per 32 work-items (the
// padding trick of the CUDA scan and transpose samples, applied to a stride
// c): work-item lid reads s[lid * c + lid / 32 + (it & 31)], wrapped into
// the buffer. Access: one local read per iteration; the pad shifts a whole
// warp by one bank (all its 32 work-items share lid / 32), not its lanes
// against each other, so the conflicts stay gcd(c, 32)-way: padding placed
// per warp instead of per row does not help. Runs like banks' stride
// variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 128
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void banks_padded_stride(__global float *out, __local float *s, int c, int iters)
{
	int lid = get_local_id(0);
	int words = LOCAL_SIZE * c + 32;

	for (int w = lid; w < words; w += LOCAL_SIZE)
		s[w] = (float)(w & 255);
	barrier(CLK_LOCAL_MEM_FENCE);
	volatile __local float *vs = s;
	float acc = 0.0f;
	int base = (lid * c + lid / 32) % words;

	for (int it = 0; it < iters; it++) {
		int w = base + (it & 31);

		acc += vs[w >= words ? w - words : w];
	}
	out[get_global_id(0)] = acc;
}
