// An array-of-structs to AoSoA conversion, a warp pair per field (as CUDA
// codes that index a record with threadIdx.x and its component with
// threadIdx.y do): records are `stride` floats, and a group of 256
// work-items takes 64 records, work-item t reading field t / 64 of record
// t % 64 and writing it to out[t] of the group's block, so the block holds
// the 64 records' field 0, then field 1, ... (at stride 4, fields x y z w).
// Access: each warp loads one 4-byte word in each of 32 records, 16 bytes
// apart at stride 4 (4 lines, 16 sectors); the group's 8 warps cover its 64
// records' 8 lines, each line read by 4 warps, one field each. The store is
// coalesced. The groups read the first n floats of a. Runs like strided's
// stride variant; unverified.

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif

#define FIELDS 4
#define RECS (LOCAL_SIZE / FIELDS)	/* records per group */

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void aos_to_aosoa_fields(__global const float *a, __global float *out, int stride)
{
	size_t i = get_global_id(0);
	uint t = get_local_id(0);
	size_t record = get_group_id(0) * (size_t)RECS + t % RECS;

	out[i] = a[record * stride + t / RECS];
}
