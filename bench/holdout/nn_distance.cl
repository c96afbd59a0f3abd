// After Rodinia's nn (nearest neighbour): records of (latitude, longitude)
// kept as an array of float2 structs, each one's Euclidean distance to a
// query point; here each work-item walks the records grid-stride and keeps
// the least distance it saw. The records are the first vector (n / 2 of
// them), the query the second vector's first two floats. Access: 8-byte
// coalesced record loads (vload2), consecutive iterations a grid apart, one
// broadcast sector for the query. Runs like dot's coalesced variant;
// unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void nn_distance(__global const float *v1, __global const float *v2,
		 __global float *resps, __constant int *KK)
{
	size_t items = get_global_size(0);
	size_t records = (size_t)KK[0] * items / 2;
	float2 query = vload2(0, v2);
	float nearest = INFINITY;

	for (size_t r = get_global_id(0); r < records; r += items) {
		float2 d = vload2(r, v1) - query;

		nearest = fmin(nearest, sqrt(d.x * d.x + d.y * d.y));
	}
	resps[get_global_id(0)] = nearest;
}
