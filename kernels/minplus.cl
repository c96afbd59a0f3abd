// Min-plus product, seed 002 ("Programming Parallel Computers", chapter 4,
// version 1): r[i][j] = min over k of d[i][k] + d[k][j], for all pairs, with
// 16 x 16 work-groups. Translated from CUDA: threadIdx.x + blockIdx.x *
// blockDim.x -> get_global_id(0), threadIdx.y + ... -> get_global_id(1),
// HUGE_VALF -> INFINITY. The global size is rounded up to whole work-groups,
// hence the seed's bound check. 2 n^3 operations (an add and a min per k).
// The 16 x 16 work-group is declared to the compiler (reqd_work_group_size).

// v0: a warp's neighbours differ in i, so `d[n*i + k]` spans 16 rows (16 cache
// lines for one useful word each) while `d[n*k + j]` reads 2 words.
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void v0(__global float *r, __global const float *d, int n)
{
	int i = get_global_id(0);
	int j = get_global_id(1);

	if (i >= n || j >= n)
		return;
	float v = INFINITY;
	for (int k = 0; k < n; ++k) {
		float x = d[n * i + k];
		float y = d[n * k + j];
		float z = x + y;
		v = min(v, z);
	}
	r[n * i + j] = v;
}

// The attempt that "does not work": read the second operand from the transpose
// t so that each work-item walks memory linearly, as on a CPU. The warp still
// spans 16 rows of d and now of t too.
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void v0_transposed(__global float *r, __global const float *d, __global const float *t, int n)
{
	int i = get_global_id(0);
	int j = get_global_id(1);

	if (i >= n || j >= n)
		return;
	float v = INFINITY;
	for (int k = 0; k < n; ++k) {
		float x = d[n * i + k];
		float y = t[n * j + k];
		float z = x + y;
		v = min(v, z);
	}
	r[n * i + j] = v;
}

// v1: swap the roles of i and j. `d[n*j + k]` is now 2 distinct words per warp
// and `d[n*k + i]` one contiguous block: 8 s instead of 42 s in the seed.
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void v1(__global float *r, __global const float *d, int n)
{
	int i = get_global_id(0);
	int j = get_global_id(1);

	if (i >= n || j >= n)
		return;
	float v = INFINITY;
	for (int k = 0; k < n; ++k) {
		float x = d[n * j + k];
		float y = d[n * k + i];
		float z = x + y;
		v = min(v, z);
	}
	r[n * j + i] = v;
}
