int q = 1 ??/
#include "x"
