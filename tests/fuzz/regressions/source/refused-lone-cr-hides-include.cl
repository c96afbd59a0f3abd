// a comment whose line ends in a lone CR#include "/etc/passwd"
__kernel void k(__global float *o) { o[0] = 1; }
