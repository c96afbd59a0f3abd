#define CAT(a, b) a##b
__kernel void k(__global float *o) { o[0] = 1; }
