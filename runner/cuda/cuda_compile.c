/* CUDA sources compiled with NVRTC (see cuda_compile.h): OpenCL-style build
 * options made NVRTC's, a cubin for the device's compute capability with
 * ptxas's report, the PTX beside it, kept on disk for the next worker, and the
 * modules compiled ahead that the worker keeps until a run takes them. */
#include "cuda_compile.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "program_disk.h"

/* OpenCL-style options ("-D X=1 -D Y") as NVRTC's ("-DX=1", "-DY") into
 * words (pointing into buf); -1 where there are too many or one is not a
 * definition. */
static int nvrtc_options(const char *options, char *buf, size_t len, const char **words, int max,
			 struct wl_error *err)
{
	int n = 0;
	char *save = NULL, *tok;

	snprintf(buf, len, "%s", options ? options : "");
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (strcmp(tok, "-D") == 0) {
			char *def = strtok_r(NULL, " ", &save);

			if (!def)
				break;
			tok = def - 2;	/* "-D" then the definition, joined in place */
			tok[0] = '-';
			tok[1] = 'D';
		}
		if (strncmp(tok, "-D", 2) != 0 || n == max) {
			wl_error_set(err, WL_ERR_CONFIG, "build option '%s' has no CUDA equivalent", tok);
			return -1;
		}
		words[n++] = tok;
	}
	return n;
}

int wl_cuda_compile_text(const struct wl_nvrtc *nv, int arch, const char *text, const char *options, char **bin,
			 size_t *len, char **log, char **ptx, struct wl_error *err)
{
	const char *words[32];
	char buf[1024];
	int n;

	*bin = *log = *ptx = NULL;
	if ((n = nvrtc_options(options, buf, sizeof(buf), words, 31, err)) < 0)
		return -1;
	/* Line info changes no instruction: the account maps PTX to source. */
	words[n++] = "--generate-line-info";
	return wl_nvrtc_compile_cubin(nv, text, "kernel.cu", arch, words, n, bin, len, ptx, log, err);
}

/* Where modules worth keeping are kept on disk (program_disk.h), or NULL. */
static char *keep_dir;

void wl_cuda_compiled_keep_in(const char *dir)
{
	free(keep_dir);
	keep_dir = dir && *dir ? strdup(dir) : NULL;
}

void wl_cuda_disk_key(const struct wl_nvrtc *nv, int arch, const struct wl_source *src, const char *options,
		      char *out, size_t len)
{
	/* The cubin is NVRTC's for the compute capability: any device of it
	 * loads it, whatever its name or driver. */
	snprintf(out, len, "cuda\nsm_%d\nnvrtc %d.%d\n%s\n%s", arch, nv->major, nv->minor, options, src->hash);
}

/* src's module with options as kept on disk for arch into c; 0, or -1 with
 * c untouched where there is none that fits. */
static int from_disk(const struct wl_nvrtc *nv, int arch, const struct wl_source *src, const char *options,
		     struct wl_cuda_compiled *c)
{
	struct wl_program_file file;
	char key[1536];

	if (!keep_dir || !src->keep_binary)
		return -1;
	wl_cuda_disk_key(nv, arch, src, options, key, sizeof(key));
	if (wl_program_disk_load(keep_dir, key, src->text, src->len, &file) < 0)
		return -1;
	c->bin = (char *)file.binary;
	c->len = file.binary_len;
	c->log = file.log;
	c->ptx = file.ptx && file.ptx[0] ? file.ptx : NULL;
	if (!c->ptx)
		free(file.ptx);
	c->loaded = 1;
	return 0;
}

/* c, just compiled, kept on disk where src is worth it (best effort). */
static void keep(const struct wl_nvrtc *nv, int arch, const struct wl_source *src, const struct wl_cuda_compiled *c)
{
	struct wl_program_file file = { (unsigned char *)c->bin, c->len, c->log ? c->log : "", c->ptx };
	struct wl_error err;
	char key[1536];

	if (!keep_dir || !src->keep_binary)
		return;
	wl_cuda_disk_key(nv, arch, src, c->options, key, sizeof(key));
	if (wl_program_disk_save(keep_dir, key, src->text, src->len, &file, &err) < 0)
		wl_log_warn("CUDA module %s not kept: %s", src->hash, err.msg);
}

/* The worker's modules compiled ahead, taken by the runs that ask for them,
 * and those still compiling on a thread of a run's (each a hash and
 * options): a list guarded by lock, arrived said each time one is done. */
static struct wl_cuda_compiled *ahead;
struct coming {
	char hash[17];
	char *options;
	struct coming *next;
};
static struct coming *coming;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t arrived = PTHREAD_COND_INITIALIZER;

/* The coming entry of hash and options, its link, or NULL (lock held). */
static struct coming **coming_link(const char *hash, const char *options)
{
	for (struct coming **link = &coming; *link; link = &(*link)->next)
		if (strcmp((*link)->hash, hash) == 0 && strcmp((*link)->options, options) == 0)
			return link;
	return NULL;
}

static void compiled_free(struct wl_cuda_compiled *c)
{
	free(c->options);
	free(c->bin);
	free(c->log);
	free(c->ptx);
	free(c);
}

int wl_cuda_compile(const struct wl_nvrtc *nv, int arch, const struct wl_source *src, const char *options,
		    struct wl_cuda_compiled **list, struct wl_error *err)
{
	struct wl_cuda_compiled *c = calloc(1, sizeof(*c));

	if (!c || !(c->options = strdup(options))) {
		free(c);
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		return -1;
	}
	if (from_disk(nv, arch, src, options, c) < 0) {
		if (wl_cuda_compile_text(nv, arch, src->text, options, &c->bin, &c->len, &c->log, &c->ptx, err) < 0) {
			compiled_free(c);
			return -1;
		}
		keep(nv, arch, src, c);
	}
	memcpy(c->hash, src->hash, sizeof(c->hash));
	c->next = *list;
	*list = c;
	return 0;
}

struct wl_cuda_compiled *wl_cuda_compiled_made(const char *hash, const char *options, const void *bin, size_t len,
					       const char *log, const char *ptx)
{
	struct wl_cuda_compiled *c = calloc(1, sizeof(*c));

	if (!c || !(c->options = strdup(options)) || !(c->bin = malloc(len ? len : 1)) ||
	    !(c->log = strdup(log ? log : "")) || (ptx && *ptx && !(c->ptx = strdup(ptx)))) {
		if (c)
			compiled_free(c);
		return NULL;
	}
	memcpy(c->bin, bin, len);
	c->len = len;
	snprintf(c->hash, sizeof(c->hash), "%s", hash);
	return c;
}

void wl_cuda_compiled_adopt(struct wl_cuda_compiled *list)
{
	pthread_mutex_lock(&lock);
	while (list) {
		struct wl_cuda_compiled *next = list->next;

		list->next = ahead;
		ahead = list;
		list = next;
	}
	pthread_mutex_unlock(&lock);
}

int wl_cuda_compiled_expect(const struct wl_source *src, const char *options)
{
	struct coming *c = calloc(1, sizeof(*c));

	if (!c || !(c->options = strdup(options))) {
		free(c);
		return -1;
	}
	memcpy(c->hash, src->hash, sizeof(c->hash));
	pthread_mutex_lock(&lock);
	c->next = coming;
	coming = c;
	pthread_mutex_unlock(&lock);
	return 0;
}

void wl_cuda_compiled_arrive(const char *hash, const char *options, struct wl_cuda_compiled *made)
{
	struct coming **link, *c = NULL;

	pthread_mutex_lock(&lock);
	if ((link = coming_link(hash, options)) != NULL) {
		c = *link;
		*link = c->next;
	}
	if (made) {
		made->next = ahead;
		ahead = made;
	}
	pthread_cond_broadcast(&arrived);
	pthread_mutex_unlock(&lock);
	if (c)
		free(c->options);
	free(c);
}

void wl_cuda_compiled_drop(const char *hash)
{
	struct wl_cuda_compiled *dropped = NULL;

	pthread_mutex_lock(&lock);
	for (struct wl_cuda_compiled **link = &ahead; *link;) {
		struct wl_cuda_compiled *c = *link;

		if (strcmp(c->hash, hash) != 0) {
			link = &c->next;
			continue;
		}
		*link = c->next;
		c->next = dropped;
		dropped = c;
	}
	pthread_mutex_unlock(&lock);
	wl_cuda_compiled_free(dropped);
}

void wl_cuda_compiled_release(void)
{
	pthread_mutex_lock(&lock);
	wl_cuda_compiled_free(ahead);
	ahead = NULL;
	pthread_mutex_unlock(&lock);
	wl_cuda_compiled_keep_in(NULL);
}

const struct wl_cuda_compiled *wl_cuda_compiled_next(const struct wl_cuda_compiled *c)
{
	return c->next;
}

void wl_cuda_compiled_free(struct wl_cuda_compiled *list)
{
	while (list) {
		struct wl_cuda_compiled *next = list->next;

		compiled_free(list);
		list = next;
	}
}

/* The link of src's module with options on the worker's list, or NULL
 * (lock held). */
static struct wl_cuda_compiled **ahead_link(const struct wl_source *src, const char *options)
{
	for (struct wl_cuda_compiled **link = &ahead; *link; link = &(*link)->next)
		if (strcmp((*link)->hash, src->hash) == 0 && strcmp((*link)->options, options) == 0)
			return link;
	return NULL;
}

int wl_cuda_compiled_has(const struct wl_source *src, const char *options)
{
	int has;

	pthread_mutex_lock(&lock);
	has = ahead_link(src, options) || coming_link(src->hash, options);
	pthread_mutex_unlock(&lock);
	return has;
}

struct wl_cuda_compiled *wl_cuda_compiled_take(const struct wl_source *src, const char *options)
{
	struct wl_cuda_compiled **link, *c = NULL;

	pthread_mutex_lock(&lock);
	/* One still compiling is waited for: compiling it again here would
	 * only race the thread that has it nearly done. */
	while (!(link = ahead_link(src, options)) && coming_link(src->hash, options))
		pthread_cond_wait(&arrived, &lock);
	if (link) {
		c = *link;
		*link = c->next;
		c->next = NULL;	/* one module, off the list: freed alone */
	}
	pthread_mutex_unlock(&lock);
	return c;
}
