int a;#include "x"
