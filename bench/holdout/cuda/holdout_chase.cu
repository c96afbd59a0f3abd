// Pointer chasing through a random permutation, against the same number of
// random loads that depend on nothing (after lmbench's lat_mem_rd and the GPU
// latency probes of Wong et al. and Jia et al., run by many threads at once):
// next holds a random permutation of 0 .. n - 1, and the launch is n / STEPS
// threads. chase_perm starts at element i * STEPS and follows next[] STEPS
// times, each load's address the value the one before returned, and writes
// where it ended; gather_perm makes the same STEPS loads from positions
// hashed from (i, step), all free to be in flight at once, and writes their
// xor. STEPS 4-byte loads per thread in unrelated sectors of next (4 MiB
// cached, 256 MiB far); one coalesced store. An experiment of its own
// (docs/own-experiments.md, "In CUDA"), check "none".
//
// The CUDA form of ../holdout_chase.cl, line for line.

#define STEPS 16

__device__ unsigned int mix32(unsigned int x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	return x ^ (x >> 16);
}

extern "C" __global__ void chase_perm(const unsigned int *next, unsigned int *out, unsigned int n)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int p = i * STEPS;

	if (p >= n)
		return;
	for (int s = 0; s < STEPS; s++)
		p = next[p];
	out[i] = p;
}

extern "C" __global__ void gather_perm(const unsigned int *next, unsigned int *out, unsigned int n)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int acc = 0;

	if (i * STEPS >= n)
		return;
	for (int s = 0; s < STEPS; s++)
		acc ^= next[mix32(i * STEPS + s) % n];
	out[i] = acc;
}
