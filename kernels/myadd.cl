// Seed 000 (Eric Holk, "Access Patterns Matter"): one simple element-wise kernel
// written six ways, to see parallelism, divergence and row- against column-wise
// alternation. The kernels keep the seed's names, its get() macro and its body,
// which (as the seed's own edit says) reads only A: even rows (or columns) get
// A + A, odd ones A - A. B stays in the signature as in the seed.
//
// The seed works in double. REAL is double where the device has fp64 and float
// where it has not (the result then says so).

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

#define get(A, N, i, j) ((A)[((i) * (N)) + (j)])

// One work-item per row, looping over the columns; even and odd work-items take
// different branches.
__kernel void MyAdd(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	unsigned int i = get_global_id(0);

	for (unsigned int j = 0; j < N; j++) {
		if (i % 2 == 0)
			get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j);
		else
			get(C, N, i, j) = get(A, N, i, j) - get(A, N, i, j);
	}
}

// One work-item per element.
__kernel void MyAdd_2D(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	unsigned int i = get_global_id(0);
	unsigned int j = get_global_id(1);

	if (i % 2 == 0)
		get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j);
	else
		get(C, N, i, j) = get(A, N, i, j) - get(A, N, i, j);
}

// The first N/2 work-items take the even rows and the rest the odd ones, so
// neighbouring work-items take the same branch.
__kernel void MyAdd_2D_unweave(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	unsigned int i = get_global_id(0);
	unsigned int j = get_global_id(1);

	if (i < N / 2) {
		unsigned int i2 = 2 * i;
		get(C, N, i2, j) = get(A, N, i2, j) + get(A, N, i2, j);
	} else {
		unsigned int i2 = 2 * (i - N / 2) + 1;
		get(C, N, i2, j) = get(A, N, i2, j) - get(A, N, i2, j);
	}
}

// The same three alternating on the column j instead of the row i (the seed's
// "_col" versions, kept in a gist of its author).
__kernel void MyAdd_col(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	unsigned int i = get_global_id(0);

	for (unsigned int j = 0; j < N; j++) {
		if (j % 2 == 0)
			get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j);
		else
			get(C, N, i, j) = get(A, N, i, j) - get(A, N, i, j);
	}
}

__kernel void MyAdd_2D_col(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	unsigned int i = get_global_id(0);
	unsigned int j = get_global_id(1);

	if (j % 2 == 0)
		get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j);
	else
		get(C, N, i, j) = get(A, N, i, j) - get(A, N, i, j);
}

__kernel void MyAdd_2D_unweave_col(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	unsigned int i = get_global_id(0);
	unsigned int j = get_global_id(1);

	if (j < N / 2) {
		unsigned int j2 = 2 * j;
		get(C, N, i, j2) = get(A, N, i, j2) + get(A, N, i, j2);
	} else {
		unsigned int j2 = 2 * (j - N / 2) + 1;
		get(C, N, i, j2) = get(A, N, i, j2) - get(A, N, i, j2);
	}
}
