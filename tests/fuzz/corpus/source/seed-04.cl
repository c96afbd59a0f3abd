#include "x"
