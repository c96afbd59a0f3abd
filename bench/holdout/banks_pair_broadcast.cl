// Pairs of work-items sharing one struct in local memory: work-items 2m and
// 2m + 1 both read s[m * c + (it & 31)], as two lanes reading one shared
// record do. Access: one local read per iteration; each word read by two
// lanes counts once, so a warp has 16 distinct words at stride c —
// max(1, gcd(c, 32) / 2)-way conflicts, half bank_stride's from c = 4 on.
// Runs like banks' broadcast variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 128
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void banks_pair_broadcast(__global float *out, __local float *s, int c, int iters)
{
	int lid = get_local_id(0);
	int words = LOCAL_SIZE * c + 32;

	for (int w = lid; w < words; w += LOCAL_SIZE)
		s[w] = (float)(w & 255);
	barrier(CLK_LOCAL_MEM_FENCE);
	volatile __local float *vs = s;
	float acc = 0.0f;
	int base = (lid / 2) * c;

	for (int it = 0; it < iters; it++)
		acc += vs[base + (it & 31)];
	out[get_global_id(0)] = acc;
}
