// Rodinia's nn (nearest neighbour): records of (latitude, longitude) kept as
// an array of float2 structs, each one's Euclidean distance to a query
// point; here each thread walks the records grid-stride and keeps the least
// distance it sees. The records are the first vector (n / 2 of them), the
// query the second vector's first two floats. 8-byte coalesced record loads,
// successive iterations a grid apart, one broadcast sector for the query.
// Runs like dot's coalesced variant (CoalescedDot in kernels/dot.cu);
// unverified.
//
// The CUDA form of ../nn_distance.cl, line for line: vload2(r, v) is
// ((const float2 *)v)[r], the float2 subtraction is written out, sqrt and
// fmin are sqrtf and fminf, INFINITY is 1.0f / 0.0f (no math header here),
// KK a const int *.

#define WL_INFINITY (1.0f / 0.0f)

extern "C" __global__ void nn_distance(const float *v1, const float *v2, float *resps, const int *KK)
{
	size_t items = (size_t)gridDim.x * blockDim.x;
	size_t records = (size_t)KK[0] * items / 2;
	float2 query = ((const float2 *)v2)[0];
	float nearest = WL_INFINITY;

	for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < records; r += items) {
		float2 p = ((const float2 *)v1)[r];
		float2 d = make_float2(p.x - query.x, p.y - query.y);

		nearest = fminf(nearest, sqrtf(d.x * d.x + d.y * d.y));
	}
	resps[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = nearest;
}
