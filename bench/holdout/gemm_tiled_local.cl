// After the CUDA samples' matrixMul: r = d d with 16 x 16 tiles of both
// operands staged in local memory per step of 16 k (zeros past n). Access:
// two coalesced 16-float loads per work-item per step; two local stores,
// 2-way conflicted (the +1 pad of a 16-word row puts a warp's two rows on
// one bank); 32 conflict-free local reads; two barriers; one store. Runs
// like minplus's v1 variant; a product, so unverified.

#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gemm_tiled_local(__global float *r, __global const float *d, int n)
{
	__local float left[TILE][TILE + 1];
	__local float right[TILE][TILE + 1];
	int lx = get_local_id(0), ly = get_local_id(1);
	int i = get_global_id(0), j = get_global_id(1);
	float sum = 0.0f;

	for (int k0 = 0; k0 < n; k0 += TILE) {
		left[ly][lx] = j < n && k0 + lx < n ? d[(size_t)n * j + k0 + lx] : 0.0f;
		right[ly][lx] = k0 + ly < n && i < n ? d[(size_t)n * (k0 + ly) + i] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < TILE; k++)
			sum += left[ly][k] * right[k][lx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (i < n && j < n)
		r[(size_t)n * j + i] = sum;
}
