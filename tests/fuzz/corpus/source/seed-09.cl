#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global double *a) { a[0] = 1; }
