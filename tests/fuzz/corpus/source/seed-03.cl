char c = 'x;
#include "x"
