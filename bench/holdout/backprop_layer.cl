// After Rodinia's backprop (bpnn_layerforward): each hidden unit's input is a
// weighted sum of the input layer, squashed by the logistic function. The
// group stages LOCAL_SIZE input values at a time in local memory, then each
// work-item (a hidden unit) adds weight[j][i] * input[j] for the staged j.
// The weights are the first vector seen as k = n / items rows of `items`
// (row j holds every unit's weight for input j), the input layer is the first
// k floats of the second. Access: coalesced weight rows, one staged load per
// work-item per chunk, broadcast local reads, a barrier pair per chunk. Runs
// like dot's coalesced variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void backprop_layer(__global const float *v1, __global const float *v2,
		    __global float *resps, __constant int *KK)
{
	__local float inputs[LOCAL_SIZE];
	size_t i = get_global_id(0), items = get_global_size(0);
	unsigned tid = get_local_id(0);
	int k = KK[0];
	float sum = 0.0f;

	for (int j0 = 0; j0 < k; j0 += LOCAL_SIZE) {
		inputs[tid] = j0 + (int)tid < k ? v2[j0 + tid] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		int stop = min(LOCAL_SIZE, k - j0);

		for (int jj = 0; jj < stop; jj++)
			sum += v1[(size_t)(j0 + jj) * items + i] * inputs[jj];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	resps[i] = 1.0f / (1.0f + exp(-sum));
}
