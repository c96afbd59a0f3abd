// Rodinia backprop's bpnn_layerforward: each hidden unit's input is a
// weighted sum over the input layer, put through the logistic function. The
// block stages LOCAL_SIZE input values at a time in shared memory, then each
// thread (a hidden unit) adds weight[j][i] * input[j] over the staged j. The
// weights are the first vector seen as k = n / items rows of `items` (row j:
// every unit's weight for input j); the input layer is the first k floats of
// the second vector. Coalesced weight rows, one staging load per thread per
// chunk, broadcast shared reads, two barriers per chunk. Runs like dot's
// coalesced variant (CoalescedDot in kernels/dot.cu); unverified.
//
// The CUDA form of ../backprop_layer.cl, line for line: exp is expf, KK a
// const int *.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

extern "C" __global__ void backprop_layer(const float *v1, const float *v2, float *resps, const int *KK)
{
	__shared__ float inputs[LOCAL_SIZE];
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, items = (size_t)gridDim.x * blockDim.x;
	unsigned tid = threadIdx.x;
	int k = KK[0];
	float sum = 0.0f;

	for (int j0 = 0; j0 < k; j0 += LOCAL_SIZE) {
		inputs[tid] = j0 + (int)tid < k ? v2[j0 + tid] : 0.0f;
		__syncthreads();
		int stop = min(LOCAL_SIZE, k - j0);

		for (int jj = 0; jj < stop; jj++)
			sum += v1[(size_t)(j0 + jj) * items + i] * inputs[jj];
		__syncthreads();
	}
	resps[i] = 1.0f / (1.0f + expf(-sum));
}
