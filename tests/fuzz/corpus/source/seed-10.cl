// the draft reader: odd signatures
extern "C" __global__ void __launch_bounds__(256) k(const float* __restrict__ x, float *y, int n, unsigned long long m, uint8_t *b) {}
__kernel void q(__global struct pt *p, read_only image2d_t img, __global float *, int, float * const c /* ) */, __global volatile int *f) {}
__kernel void e(void) {}
