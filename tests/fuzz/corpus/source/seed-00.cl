__kernel void k(void) { }
