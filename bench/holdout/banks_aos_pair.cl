// An array of structs in local memory, two fields read at once: work-item lid
// owns the struct of c words at s[lid * c] and each iteration reads two of
// its fields half a struct apart (as code reading p.x and p.z together
// does), shifted by (it & 31) as the built-ins shift. Access: two local
// reads per iteration with the struct's stride c — gcd(c, 32)-way conflicts
// each, as bank_struct has. Runs like banks' struct variant; its sums are
// its own, so unverified. Every index stays below local * c + 31.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 128
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void banks_aos_pair(__global float *out, __local float *s, int c, int iters)
{
	int lid = get_local_id(0);
	int words = LOCAL_SIZE * c + 32;

	for (int w = lid; w < words; w += LOCAL_SIZE)
		s[w] = (float)(w & 255);
	barrier(CLK_LOCAL_MEM_FENCE);
	/* volatile: nothing writes s in the loop, and every read must happen. */
	volatile __local float *vs = s;
	float acc = 0.0f;
	int f = 0, g = c / 2;

	for (int it = 0; it < iters; it++) {
		int base = lid * c + (it & 31);

		acc += vs[base + f] + vs[base + g];
		f = f + 1 == c ? 0 : f + 1;
		g = g + 1 == c ? 0 : g + 1;
	}
	out[get_global_id(0)] = acc;
}
