#\u0069nclude "/etc/passwd"
__kernel void k(__global float *o) { o[0] = 1; }
