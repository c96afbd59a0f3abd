/* The CUDA driver's answers (see cuda_driver.h): four entry points of the
 * driver API through dlopen, with their numbers from cuda.h written here so
 * that nothing of CUDA is needed to build. */
#include "cuda_driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* From cuda.h (CUDA 12/13), stable across versions. */
#define CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE 38
#define CU_DEVICE_ATTRIBUTE_PCI_BUS_ID 33
#define CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID 34
#define CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID 50

static void *loaded;

int wl_cuda_devices_load(const char *lib, struct wl_cuda_devices *out, char *why, size_t why_len)
{
	int (*init)(unsigned);
	int (*count)(int *);
	int (*get)(int *, int);
	int (*attr)(int *, int, int);
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	int n = 0, rc;

	memset(out, 0, sizeof(*out));
	if (!h) {
		snprintf(why, why_len, "no CUDA driver (%s): %s", lib, dlerror());
		return -1;
	}
	/* The driver stays loaded: unloading it under a live OpenCL context is
	 * not safe, and NVIDIA's OpenCL maps it anyway. */
	loaded = h;
	*(void **)&init = dlsym(h, "cuInit");
	*(void **)&count = dlsym(h, "cuDeviceGetCount");
	*(void **)&get = dlsym(h, "cuDeviceGet");
	*(void **)&attr = dlsym(h, "cuDeviceGetAttribute");
	if (!init || !count || !get || !attr) {
		snprintf(why, why_len, "%s lacks the driver API's entry points", lib);
		return -1;
	}
	if ((rc = init(0)) != 0 || (rc = count(&n)) != 0) {
		snprintf(why, why_len, "the CUDA driver (%s) did not start (error %d)", lib, rc);
		return -1;
	}
	for (int i = 0; i < n && out->count < WL_CUDA_DEVICES_MAX; i++) {
		int d, b, s, dom = 0, l2 = 0;

		if (get(&d, i) != 0 || attr(&b, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d) != 0 ||
		    attr(&s, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d) != 0 ||
		    attr(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, d) != 0 || l2 <= 0)
			continue;
		if (attr(&dom, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d) != 0)
			dom = 0;
		out->list[out->count].domain = (unsigned)dom;
		out->list[out->count].bus = (unsigned)b;
		out->list[out->count].slot = (unsigned)s;
		out->list[out->count].ordinal = i;
		out->list[out->count++].l2_bytes = l2;
	}
	return 0;
}

/* The entry of the device at domain:bus:slot, or -1. */
static int entry(const struct wl_cuda_devices *cuda, unsigned domain, unsigned bus, unsigned slot)
{
	for (int i = 0; cuda && i < cuda->count; i++)
		if (cuda->list[i].domain == domain && cuda->list[i].bus == bus && cuda->list[i].slot == slot)
			return i;
	return -1;
}

long long wl_cuda_l2_bytes(const struct wl_cuda_devices *cuda, unsigned domain, unsigned bus, unsigned slot)
{
	int i = entry(cuda, domain, bus, slot);

	return i < 0 ? 0 : cuda->list[i].l2_bytes;
}

int wl_cuda_ordinal(const struct wl_cuda_devices *cuda, unsigned domain, unsigned bus, unsigned slot)
{
	int i = entry(cuda, domain, bus, slot);

	return i < 0 ? -1 : cuda->list[i].ordinal;
}
