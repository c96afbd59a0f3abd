// A 1-D 7-point smoothing stencil, jacobi-1d's radius-3 sibling: out[i] is a
// weighted sum of a[i + offset - 3 .. i + offset + 3], each index clamped to
// the n + offset floats of the input. Seven overlapping unit-stride reads
// and one write per thread. Runs like offset's offset variant (read_offset in
// kernels/offset.cu); unverified.
//
// The CUDA form of ../stencil7_1d.cl, line for line.

#define RADIUS 3

extern "C" __global__ void stencil7_1d(const float *a, float *out, int offset)
{
	long long i = (long long)(blockIdx.x * (size_t)blockDim.x + threadIdx.x);
	long long last = (long long)((size_t)gridDim.x * blockDim.x) + offset - 1;
	float acc = 0.0f;

	for (int k = -RADIUS; k <= RADIUS; k++) {
		long long j = i + offset + k;

		j = j < 0 ? 0 : (j > last ? last : j);
		acc += a[j] * (1.0f / (2 + k * k));
	}
	out[i] = acc;
}
