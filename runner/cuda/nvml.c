/* NVML through dlopen (see nvml.h). Only the handful of entry points warplab
 * reads are declared here, with the types of NVML's public header (nvml.h of
 * the CUDA toolkit): opaque device handles, int return codes (0 is success).
 * The device is matched to NVML's by its PCI address (as its API found
 * it), else by its order among NVIDIA GPUs. */
#include "nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *nvml_device;

#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0
#define NVML_ERROR_NOT_SUPPORTED 3
/* Throttle ("clocks event") reasons that slow a GPU down. */
#define NVML_SLOWDOWN_REASONS (0x4ULL /* sw power cap */ | 0x8ULL /* hw slowdown */ | \
			       0x20ULL /* sw thermal */ | 0x40ULL /* hw thermal */ |    \
			       0x80ULL /* hw power brake */)

struct wl_nvml {
	void *lib;
	nvml_device dev;
	int (*shutdown)(void);
	int (*clock)(nvml_device, int, unsigned *);
	int (*max_clock)(nvml_device, int, unsigned *);
	int (*temperature)(nvml_device, int, unsigned *);
	int (*power)(nvml_device, unsigned *);
	int (*reasons)(nvml_device, unsigned long long *);
	int (*bus_width)(nvml_device, unsigned *);
	int (*energy)(nvml_device, unsigned long long *);	/* or NULL: an older NVML */
};

void wl_nvml_open(const struct wl_nvml_target *target, struct wl_nvml **out, char *why,
		  size_t why_len)
{
	struct wl_nvml *n = NULL;
	int (*init)(void);
	int (*by_pci)(const char *, nvml_device *);
	int (*by_index)(unsigned, nvml_device *);
	const struct wl_pci_address *pci = target->pci;
	char address[32];

	*out = NULL;
	if (!target->nvidia) {
		snprintf(why, why_len, "not an NVIDIA GPU");
		return;
	}
	n = calloc(1, sizeof(*n));
	if (!n) {
		snprintf(why, why_len, "out of memory");
		return;
	}
	n->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!n->lib) {
		snprintf(why, why_len, "NVML (libnvidia-ml.so.1) is not installed");
		goto fail;
	}
	*(void **)&init = dlsym(n->lib, "nvmlInit_v2");
	*(void **)&n->shutdown = dlsym(n->lib, "nvmlShutdown");
	*(void **)&by_pci = dlsym(n->lib, "nvmlDeviceGetHandleByPciBusId_v2");
	*(void **)&by_index = dlsym(n->lib, "nvmlDeviceGetHandleByIndex_v2");
	*(void **)&n->clock = dlsym(n->lib, "nvmlDeviceGetClockInfo");
	*(void **)&n->max_clock = dlsym(n->lib, "nvmlDeviceGetMaxClockInfo");
	*(void **)&n->temperature = dlsym(n->lib, "nvmlDeviceGetTemperature");
	*(void **)&n->power = dlsym(n->lib, "nvmlDeviceGetPowerUsage");
	*(void **)&n->reasons = dlsym(n->lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!n->reasons)
		*(void **)&n->reasons = dlsym(n->lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
	*(void **)&n->bus_width = dlsym(n->lib, "nvmlDeviceGetMemoryBusWidth");
	*(void **)&n->energy = dlsym(n->lib, "nvmlDeviceGetTotalEnergyConsumption");
	if (!init || !n->shutdown || !by_index || !n->clock || !n->max_clock || !n->temperature ||
	    !n->power || !n->reasons || !n->bus_width) {
		snprintf(why, why_len, "NVML lacks the functions warplab reads");
		goto fail;
	}
	if (init() != 0) {
		snprintf(why, why_len, "NVML did not start (nvmlInit_v2 failed)");
		goto fail;
	}
	/* The PCI address as NVML writes it. */
	if (pci)
		snprintf(address, sizeof(address), "%08x:%02x:%02x.%x", pci->domain, pci->bus,
			 pci->device, pci->function);
	if (!(by_pci && pci && by_pci(address, &n->dev) == 0) &&
	    by_index((unsigned)target->nvidia_index, &n->dev) != 0) {
		snprintf(why, why_len, "NVML does not know device %s", target->id);
		n->shutdown();
		goto fail;
	}
	*out = n;
	return;
fail:
	if (n->lib)
		dlclose(n->lib);
	free(n);
}

void wl_nvml_close(struct wl_nvml *n)
{
	if (!n)
		return;
	n->shutdown();
	dlclose(n->lib);
	free(n);
}

json_t *wl_nvml_state(struct wl_nvml *n)
{
	unsigned sm = 0, mem = 0, max_sm = 0, max_mem = 0, temp = 0, mw = 0;
	unsigned long long reasons = 0;

	n->clock(n->dev, NVML_CLOCK_SM, &sm);
	n->clock(n->dev, NVML_CLOCK_MEM, &mem);
	n->max_clock(n->dev, NVML_CLOCK_SM, &max_sm);
	n->max_clock(n->dev, NVML_CLOCK_MEM, &max_mem);
	n->temperature(n->dev, NVML_TEMPERATURE_GPU, &temp);
	n->power(n->dev, &mw);
	n->reasons(n->dev, &reasons);
	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:f, s:I, s:b}", "sm_mhz", (int)sm, "mem_mhz", (int)mem,
			 "max_sm_mhz", (int)max_sm, "max_mem_mhz", (int)max_mem, "temperature_c", (int)temp,
			 "power_w", mw / 1000.0, "throttle_reasons", (json_int_t)reasons, "throttled",
			 (reasons & NVML_SLOWDOWN_REASONS) != 0);
}

double wl_nvml_peak_gbps(struct wl_nvml *n)
{
	unsigned max_mem = 0, width = 0;

	if (n->max_clock(n->dev, NVML_CLOCK_MEM, &max_mem) != 0 || n->bus_width(n->dev, &width) != 0)
		return 0;
	/* Double data rate: two transfers per clock, width bits each. */
	return 2.0 * max_mem * 1e6 * (width / 8.0) / 1e9;
}

int wl_nvml_throttled(struct wl_nvml *n)
{
	unsigned long long reasons = 0;

	return n->reasons(n->dev, &reasons) == 0 && (reasons & NVML_SLOWDOWN_REASONS) != 0;
}

int wl_nvml_energy_mj(struct wl_nvml *n, unsigned long long *mj, char *why, size_t why_len)
{
	int rc;

	if (!n->energy) {
		snprintf(why, why_len, "this NVML has no energy counter (nvmlDeviceGetTotalEnergyConsumption)");
		return -1;
	}
	rc = n->energy(n->dev, mj);
	if (rc == 0)
		return 0;
	snprintf(why, why_len, rc == NVML_ERROR_NOT_SUPPORTED ? "the GPU has no energy counter (NVML: not supported)"
							       : "NVML could not read the energy counter (error %d)",
		 rc);
	return -1;
}

static json_t *state(void *handle)
{
	return wl_nvml_state(handle);
}

static double peak_gbps(void *handle)
{
	return wl_nvml_peak_gbps(handle);
}

static int throttled(void *handle)
{
	return wl_nvml_throttled(handle);
}

static int energy_mj(void *handle, unsigned long long *mj, char *why, size_t why_len)
{
	return wl_nvml_energy_mj(handle, mj, why, why_len);
}

static void nvml_close(void *handle)
{
	wl_nvml_close(handle);
}

const struct wl_telemetry wl_nvml_telemetry = {
	.name = "NVML",
	.state = state,
	.peak_gbps = peak_gbps,
	.throttled = throttled,
	.energy_mj = energy_mj,
	.close = nvml_close,
};
