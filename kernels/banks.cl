// Local-memory bank conflicts (seed 003, "Access Patterns"; seed 001, "array of
// structs vs struct of arrays"). Local memory is split into banks (32 banks of
// 4-byte words on the GPUs the seeds describe); a warp's access is served in as
// many passes as the largest number of distinct words it touches in one bank.
//
// Each work-item reads local memory iters times and sums what it reads, with the
// pattern of its variant shifted by (it & 31) each iteration; a common shift does
// not change which words share a bank. The reads go through a volatile pointer:
// nothing writes s inside the loop, so a compiler could otherwise load the 32
// distinct words once and measure nothing. s holds get_local_size(0) * c + 32
// words (a kernel argument, sized by the host), filled with word indexes so the
// sum can be checked. LOCAL_SIZE, the work-group size, is declared to the
// compiler (reqd_work_group_size).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 128
#endif

// Fill s with each word's own index, so every read has a known value.
void fill_words(__local float *s, int words)
{
	for (int w = get_local_id(0); w < words; w += get_local_size(0))
		s[w] = (float)w;
	barrier(CLK_LOCAL_MEM_FENCE);
}

// Stride c: s[lid * c]. "Interleaving does not create conflicts if c is odd";
// with c even the warp's words fall into gcd(c, 32)-deep piles per bank.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void bank_stride(__global float *out, __local float *s, int c, int iters)
{
	int lid = get_local_id(0);
	int words = get_local_size(0) * c + 32;

	fill_words(s, words);
	volatile __local float *vs = s;
	float acc = 0.0f;
	int base = lid * c;

	for (int it = 0; it < iters; it++)
		acc += vs[base + (it & 31)];
	out[get_global_id(0)] = acc;
}

// Broadcast: s[lid % c]. Work-items reading the same word share one read, so
// however many read it there is no conflict.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void bank_broadcast(__global float *out, __local float *s, int c, int iters)
{
	int lid = get_local_id(0);
	int words = get_local_size(0) * c + 32;

	fill_words(s, words);
	volatile __local float *vs = s;
	float acc = 0.0f;
	int base = lid % c;

	for (int it = 0; it < iters; it++)
		acc += vs[base + (it & 31)];
	out[get_global_id(0)] = acc;
}

// Array of structs of c words: work-item lid reads each field f of its own
// struct, s[lid * c + f]: the same piles as stride c.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void bank_struct(__global float *out, __local float *s, int c, int iters)
{
	int lid = get_local_id(0);
	int words = get_local_size(0) * c + 32;

	fill_words(s, words);
	volatile __local float *vs = s;
	float acc = 0.0f;
	int f = 0;

	for (int it = 0; it < iters; it++) {
		acc += vs[lid * c + f + (it & 31)];
		f = f + 1 == c ? 0 : f + 1;
	}
	out[get_global_id(0)] = acc;
}

// The same c fields as a struct of arrays: field f of work-item lid is
// s[f * size + lid], consecutive work-items read consecutive words.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void bank_soa(__global float *out, __local float *s, int c, int iters)
{
	int lid = get_local_id(0);
	int size = get_local_size(0);
	int words = size * c + 32;

	fill_words(s, words);
	volatile __local float *vs = s;
	float acc = 0.0f;
	int f = 0;

	for (int it = 0; it < iters; it++) {
		acc += vs[f * size + lid + (it & 31)];
		f = f + 1 == c ? 0 : f + 1;
	}
	out[get_global_id(0)] = acc;
}
