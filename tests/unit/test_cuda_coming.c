/* A run's CUDA modules compiled beside its points (cuda_compile.c), with no
 * GPU: a module said to be coming counts as had, the point that takes it
 * gets it once it arrives (waiting where it has not yet: a thread hands it
 * over here, whichever comes first), one that arrives as nothing (it did
 * not compile) leaves the point to compile its own, and one never said to
 * be coming is not waited for. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuda_compile.h"
#include "source.h"

/* What the thread hands over: src's module with options. */
struct handover {
	const struct wl_source *src;
	const char *options;
};

static void *arrive_later(void *arg)
{
	const struct handover *h = arg;
	struct wl_cuda_compiled *made = calloc(1, sizeof(*made));

	if (made && (made->options = strdup(h->options)))
		memcpy(made->hash, h->src->hash, sizeof(made->hash));
	wl_cuda_compiled_arrive(h->src->hash, h->options, made);
	return NULL;
}

void test_cuda_modules_coming_are_waited_for(void)
{
	struct wl_source src;
	struct wl_error err;
	struct handover h = { &src, "-D TILE=16" };
	struct wl_cuda_compiled *got;
	pthread_t thread;

	if (wl_source_from_text("__global__ void k(float *x) { x[0] = TILE; }", &src, &err) < 0)
		return;
	CHECK(!wl_cuda_compiled_has(&src, "-D TILE=16"), "nothing is had before it is said to be coming");
	CHECK(wl_cuda_compiled_expect(&src, "-D TILE=16") == 0 && wl_cuda_compiled_expect(&src, "-D TILE=32") == 0,
	      "two said to be coming");
	CHECK(wl_cuda_compiled_has(&src, "-D TILE=16"), "one coming counts as had: the run does not compile it again");
	CHECK(pthread_create(&thread, NULL, arrive_later, &h) == 0, "a thread to hand it over");
	got = wl_cuda_compiled_take(&src, "-D TILE=16");
	CHECK(got && strcmp(got->options, "-D TILE=16") == 0 && strcmp(got->hash, src.hash) == 0,
	      "the point gets the module the thread made");
	pthread_join(thread, NULL);
	wl_cuda_compiled_free(got);
	CHECK(!wl_cuda_compiled_has(&src, "-D TILE=16"), "taken, it is no longer had");
	/* One that did not compile arrives as nothing. */
	wl_cuda_compiled_arrive(src.hash, "-D TILE=32", NULL);
	CHECK(!wl_cuda_compiled_has(&src, "-D TILE=32") && !wl_cuda_compiled_take(&src, "-D TILE=32"),
	      "one that did not compile is not waited for: the point compiles it and says why");
	CHECK(!wl_cuda_compiled_take(&src, "-D TILE=64"), "one never coming is not waited for");
	wl_source_free(&src);
}
