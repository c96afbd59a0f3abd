// A 1-D 5-point stencil, the radius-2 member of PolyBench's jacobi-1d family:
// out[i] is a weighted sum of a[i + offset - 2 .. i + offset + 2]. The input
// holds n + offset floats, so offset is the stencil's left margin, and every
// index is clamped into the input. Each thread makes five overlapping
// unit-stride reads and one write. Runs like offset's offset variant
// (read_offset in kernels/offset.cu); unverified.
//
// The CUDA form of ../stencil5_1d.cl, line for line: get_global_size(0) is
// gridDim.x * blockDim.x, long is long long.

#define RADIUS 2

extern "C" __global__ void stencil5_1d(const float *a, float *out, int offset)
{
	long long i = (long long)(blockIdx.x * (size_t)blockDim.x + threadIdx.x);
	long long last = (long long)((size_t)gridDim.x * blockDim.x) + offset - 1;	/* a's last index */
	float acc = 0.0f;

	for (int k = -RADIUS; k <= RADIUS; k++) {
		long long j = i + offset + k;

		j = j < 0 ? 0 : (j > last ? last : j);
		acc += a[j] * (k == 0 ? 0.4f : (k == -1 || k == 1 ? 0.2f : 0.1f));
	}
	out[i] = acc;
}
