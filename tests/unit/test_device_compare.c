/* Two device buffers compared on the device (point.h,
 * wl_point_same_on_device), on PoCL: the same bytes are the same, one word
 * changed at either end is not, the flag starts afresh each time, and bytes
 * that are no whole words are refused rather than half compared. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "check.h"
#include "cl_device.h"
#include "cl_program.h"
#include "dev_buffer.h"
#include "point.h"

void test_buffers_are_compared_on_the_device(void)
{
	enum { N = 300001 };
	struct wl_devices devs = { 0 };
	struct wl_program_cache *programs = wl_program_cache_new(NULL);
	unsigned *a = malloc(N * sizeof(unsigned)), *b = malloc(N * sizeof(unsigned));
	struct wl_error err;

	CHECK(wl_devices_find("cpu", NULL, &devs, &err) == 0 && devs.count > 0, "a PoCL device: %s", err.msg);
	for (size_t i = 0; i < N; i++)
		a[i] = b[i] = (unsigned)(i * 2654435761u);
	if (devs.count) {
		struct wl_point pt = { .dev = &devs.list[0], .programs = programs, .backend = &wl_backend_opencl };
		struct wl_buf da = { 0 }, db = { 0 }, flag = { 0 };
		const size_t at[] = { N - 1, 0 };

		CHECK(wl_cl_device_open(pt.dev, &err) == 0, "%s", err.msg);
		CHECK(wl_point_buffer(&pt, WL_BUF_IN, N * sizeof(unsigned), a, &da, &err) == 0 &&
		      wl_point_buffer(&pt, WL_BUF_SCRATCH, N * sizeof(unsigned), b, &db, &err) == 0 &&
		      wl_point_buffer(&pt, WL_BUF_SCRATCH, sizeof(unsigned), NULL, &flag, &err) == 0, "%s", err.msg);
		CHECK(wl_point_same_on_device(&pt, &da, &db, N * sizeof(unsigned), &flag, &err) == 1, "the same: %s",
		      err.msg);
		for (size_t k = 0; k < 2; k++) {
			unsigned one = b[at[k]] ^ 1u;

			/* One bit of one word. */
			b[at[k]] = one;
			CHECK(pt.backend->write(pt.dev, &db, N * sizeof(unsigned), b, &err) == 0, "%s", err.msg);
			CHECK(wl_point_same_on_device(&pt, &da, &db, N * sizeof(unsigned), &flag, &err) == 0,
			      "word %zu differs: %s", at[k], err.msg);
			b[at[k]] = one ^ 1u;
			CHECK(pt.backend->write(pt.dev, &db, N * sizeof(unsigned), b, &err) == 0, "%s", err.msg);
			CHECK(wl_point_same_on_device(&pt, &da, &db, N * sizeof(unsigned), &flag, &err) == 1,
			      "the same again after word %zu differed (the flag starts afresh): %s", at[k], err.msg);
		}
		CHECK(wl_point_same_on_device(&pt, &da, &db, N * sizeof(unsigned) - 2, &flag, &err) == -1,
		      "bytes that are no whole words are refused");
		wl_buf_release(&da);
		wl_buf_release(&db);
		wl_buf_release(&flag);
	}
	free(a);
	free(b);
	wl_program_cache_free(programs);
	wl_devices_free(&devs);
}
