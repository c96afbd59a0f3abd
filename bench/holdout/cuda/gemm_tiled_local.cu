// The CUDA samples' matrixMul: r = d d with 16 x 16 tiles of both operands
// staged in shared memory per step of 16 k (zeros past n). Per thread and
// step: two coalesced 16-float loads, two shared stores (2-way conflicted:
// the +1 pad of a 16-word row puts a warp's two rows on one bank), 32
// conflict-free shared reads, two barriers; then one store. Runs like
// minplus's v1 variant (v1 in kernels/minplus.cu); a product, so unverified.
//
// The CUDA form of ../gemm_tiled_local.cl, line for line.

#define TILE 16

extern "C" __global__ void gemm_tiled_local(float *r, const float *d, int n)
{
	__shared__ float left[TILE][TILE + 1];
	__shared__ float right[TILE][TILE + 1];
	int lx = threadIdx.x, ly = threadIdx.y;
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
	float sum = 0.0f;

	for (int k0 = 0; k0 < n; k0 += TILE) {
		left[ly][lx] = j < n && k0 + lx < n ? d[(size_t)n * j + k0 + lx] : 0.0f;
		right[ly][lx] = k0 + ly < n && i < n ? d[(size_t)n * (k0 + ly) + i] : 0.0f;
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			sum += left[ly][k] * right[k][lx];
		__syncthreads();
	}
	if (i < n && j < n)
		r[(size_t)n * j + i] = sum;
}
