/* Two device buffers compared on the device (see point.h,
 * wl_point_same_on_device): a check that finds its output equal to its
 * reference reads back four bytes rather than both outputs. */
#include "point.h"

#include <stdint.h>
#include <string.h>

#include "backend.h"

/* Any word that differs sets the flag: every writer writes the same 1, so
 * no atomic is needed, and a work-item stops at its first. */
static const char COMPARE_SOURCE[] =
	"__kernel void wl_differ(__global const uint *a, __global const uint *b, ulong n, __global uint *differ)\n"
	"{\n"
	"	for (ulong i = get_global_id(0); i < n; i += get_global_size(0))\n"
	"		if (a[i] != b[i]) {\n"
	"			*differ = 1;\n"
	"			return;\n"
	"		}\n"
	"}\n";

#define COMPARE_ITEMS ((size_t)1 << 18)

int wl_point_same_on_device(const struct wl_point *pt, const struct wl_buf *a, const struct wl_buf *b, size_t bytes,
			    const struct wl_buf *flag, struct wl_error *err)
{
	static struct wl_source sources[WL_DEVICE_APIS];
	const struct wl_backend *be = pt->backend;
	const struct wl_source *source = wl_runner_source(be, COMPARE_SOURCE, sources, err);
	struct wl_point own = *pt;
	struct wl_launch l = { .dims = 1, .local = { 256 } };
	size_t words = bytes / 4;
	uint32_t differ = 1;
	int rc = -1;

	if (!source)
		return -1;
	own.source = source;
	own.like_kernel = NULL;
	l.global[0] = words < COMPARE_ITEMS ? (words + 255) / 256 * 256 : COMPARE_ITEMS;
	if (l.global[0] == 0)
		l.global[0] = 256;
	if (bytes % 4 != 0) {
		wl_error_set(err, WL_ERR_INTERNAL, "%zu bytes are no whole words", bytes);
		return -1;
	}
	if (be->fill(pt->dev, flag, 0, sizeof(differ), err) < 0 ||
	    wl_point_kernel(&own, "", "wl_differ", &l, err) < 0 || be->arg_buffer(&l, 0, a, err) < 0 ||
	    be->arg_buffer(&l, 1, b, err) < 0 || be->arg_u64(&l, 2, words, err) < 0 ||
	    be->arg_buffer(&l, 3, flag, err) < 0 || be->run_once(pt->dev, &l, err) < 0 ||
	    wl_point_read(pt, flag, sizeof(differ), &differ, err) < 0)
		goto out;
	rc = differ == 0;
out:
	wl_launch_release(&l);
	return rc;
}
