// Dot product in CUDA, after seed 004 ("Optimization Strategies"), the twin of
// dot.cl: the tutorial's names and indexing; its __constant int argument is a
// pointer to one int here. NaiveDot computes its chunk bounds in 64-bit, and
// the kernels write resps[i] (n is a multiple of the threads). LOCAL_SIZE, the
// block size, is declared to the compiler (__launch_bounds__).

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

// Naive: each thread sums a contiguous chunk; nothing coalesces.
extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
NaiveDot(const float *v1, const float *v2, float *resps, const int *NN)
{
	int n = NN[0];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int nWorkItems = gridDim.x * blockDim.x;
	int jmin = (int)(((long long)n * i) / nWorkItems);
	int jmax = (int)(((long long)n * (i + 1)) / nWorkItems);
	float val = 0.0f;

	for (int j = jmin; j < jmax; j++)
		val += v1[j] * v2[j];
	resps[i] = val;
}

// Coalesced: in the j-th iteration thread i reads element i + j * nWorkItems.
extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
CoalescedDot(const float *v1, const float *v2, float *resps, const int *KK)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int nWorkItems = gridDim.x * blockDim.x;
	int k = KK[0];
	float val = 0.0f;
	int ind = i;

	for (int j = 0; j < k; j++) {
		val += v1[ind] * v2[ind];
		ind += nWorkItems;
	}
	resps[i] = val;
}

// Coalesced, then a __shared__ reduction: one value per block.
extern "C" __global__ void __launch_bounds__(LOCAL_SIZE)
CoalLocalDot(const float *v1, const float *v2, float *resps, const int *KK)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int nWorkItems = gridDim.x * blockDim.x;
	int k = KK[0];
	float val = 0.0f;
	int ind = i;

	for (int j = 0; j < k; j++) {
		val += v1[ind] * v2[ind];
		ind += nWorkItems;
	}
	// Reduction part
	int p = threadIdx.x;
	int q = blockIdx.x;
	int maxp = blockDim.x;
	__shared__ float values[LOCAL_SIZE];

	values[p] = val;
	__syncthreads();
	maxp = maxp >> 1;
	while (maxp > 0) {
		if (p < maxp)
			values[p] += values[p + maxp];
		maxp = maxp >> 1;
		__syncthreads();
	}
	if (p == 0)
		resps[q] = values[0];
}
