/* OpenCL's builders (builders.h): a worker's device named so that a builder
 * process finds it, and the builder's side, which builds each program for it
 * and answers with the build's log and binary. */
#ifndef WL_CL_BUILDERS_H
#define WL_CL_BUILDERS_H

#include <stddef.h>

#include "cl_device.h"

/* dev as a builder finds it, by names (a process's list of platforms need
 * not be in another's order): "opencl\nPLATFORM\nDEVICE\nK", the K-th
 * device of that name on that platform, into out (a builder's WHERE); -1
 * where OpenCL does not list it. */
int wl_cl_builder_place(const struct wl_device *dev, char *out, size_t len);

/* The builder's side: open the device where names (wl_cl_builder_place's
 * less its first line),
 * then build each set of options sent (wl_builder_serve). Returns the
 * process's exit status: 0, or 1 where the device cannot be opened. */
int wl_cl_builder_main(const char *where);

#endif
