// Seed 000 (Eric Holk, "Access Patterns Matter") in CUDA, the twins of
// myadd.cl: one element-wise kernel written six ways, with the seed's names,
// its get() macro and its body, which reads only A (even rows or columns get
// A + A, odd ones A - A); B stays in the signature as in the seed. REAL is
// double, as in the seed, unless WL_FP32 is defined.

#ifdef WL_FP32
#define REAL float
#else
#define REAL double
#endif

#define get(A, N, i, j) ((A)[((i) * (N)) + (j)])

// One thread per row, looping over the columns; even and odd threads take
// different branches.
extern "C" __global__ void MyAdd(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	for (unsigned int j = 0; j < N; j++) {
		if (i % 2 == 0)
			get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j);
		else
			get(C, N, i, j) = get(A, N, i, j) - get(A, N, i, j);
	}
}

// One thread per element.
extern "C" __global__ void MyAdd_2D(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;

	if (i % 2 == 0)
		get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j);
	else
		get(C, N, i, j) = get(A, N, i, j) - get(A, N, i, j);
}

// The first N/2 threads take the even rows and the rest the odd ones.
extern "C" __global__ void MyAdd_2D_unweave(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;

	if (i < N / 2) {
		unsigned int i2 = 2 * i;
		get(C, N, i2, j) = get(A, N, i2, j) + get(A, N, i2, j);
	} else {
		unsigned int i2 = 2 * (i - N / 2) + 1;
		get(C, N, i2, j) = get(A, N, i2, j) - get(A, N, i2, j);
	}
}

// The same three alternating on the column j instead of the row i.
extern "C" __global__ void MyAdd_col(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	for (unsigned int j = 0; j < N; j++) {
		if (j % 2 == 0)
			get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j);
		else
			get(C, N, i, j) = get(A, N, i, j) - get(A, N, i, j);
	}
}

extern "C" __global__ void MyAdd_2D_col(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;

	if (j % 2 == 0)
		get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j);
	else
		get(C, N, i, j) = get(A, N, i, j) - get(A, N, i, j);
}

extern "C" __global__ void MyAdd_2D_unweave_col(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;

	if (j < N / 2) {
		unsigned int j2 = 2 * j;
		get(C, N, i, j2) = get(A, N, i, j2) + get(A, N, i, j2);
	} else {
		unsigned int j2 = 2 * (j - N / 2) + 1;
		get(C, N, i, j2) = get(A, N, i, j2) - get(A, N, i, j2);
	}
}
