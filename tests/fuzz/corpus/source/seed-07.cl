#define C(a,b) a##b
