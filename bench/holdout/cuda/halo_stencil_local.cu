// The row pass of the CUDA samples' convolutionSeparable: a block stages its
// LOCAL_SIZE floats and RADIUS more on either side (the halo) in shared
// memory, then each thread adds 2 * RADIUS + 1 weighted neighbours from
// there. Global memory sees one coalesced read per staged float (neighbouring
// blocks both read the halo) and one write per output; shared memory sees
// 2 * RADIUS + 1 reads per output. Indexes beyond either end are clamped.
// Runs like copy's float variant (copy_float in kernels/copy.cu); it filters,
// so it is unverified.
//
// The CUDA form of ../halo_stencil_local.cl, line for line: the __local row
// is a static __shared__ array, barrier() is __syncthreads(), long is
// long long.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define RADIUS 8	/* the sample's KERNEL_RADIUS */
#define SPAN (LOCAL_SIZE + 2 * RADIUS)

extern "C" __global__ void halo_stencil_local(const float *in, float *out, unsigned int count)
{
	__shared__ float row[SPAN];
	size_t lid = threadIdx.x;
	long long first = (long long)blockIdx.x * LOCAL_SIZE - RADIUS;

	/* Every thread stages, even past count, so all reach the barrier. */
	for (size_t s = lid; s < SPAN; s += LOCAL_SIZE) {
		long long g = first + (long long)s;

		g = g < 0 ? 0 : (g >= (long long)count ? (long long)count - 1 : g);
		row[s] = in[g];
	}
	__syncthreads();
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	if (i >= count)
		return;
	float acc = 0.0f;

	for (int k = -RADIUS; k <= RADIUS; k++)
		acc += row[lid + RADIUS + k] * (1.0f / (1 + k * k));
	out[i] = acc;
}
