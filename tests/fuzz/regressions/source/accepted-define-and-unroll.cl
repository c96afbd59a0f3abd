#define TILE 32
#pragma unroll
__kernel void k(__global float *o) { o[0] = TILE; }
