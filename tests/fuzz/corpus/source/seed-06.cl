#pragma GCC dependency "x"
