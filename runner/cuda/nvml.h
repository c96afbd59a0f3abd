/* NVIDIA's management library (NVML), loaded at run time with dlopen when the
 * runner's machine has it (libnvidia-ml.so.1 comes with the driver): never a
 * build dependency, and a runner without it says the clocks are unknown. It
 * tells a GPU's clocks, temperature, power and throttle reasons, and its
 * theoretical memory bandwidth (2 x memory clock x bus width). */
#ifndef WL_NVML_H
#define WL_NVML_H

#include <jansson.h>

#include <stddef.h>

#include "device.h"
#include "pci_address.h"

struct wl_nvml;

/* The GPU NVML is asked for: by PCI address where known, else by NVIDIA's
 * index. */
struct wl_nvml_target {
	const char *id;				/* the device, for messages */
	int nvidia;				/* an NVIDIA GPU; nothing else is opened */
	const struct wl_pci_address *pci;	/* or NULL */
	int nvidia_index;
};

/* Load NVML for target; *out is NULL (with why filled) when it is no NVIDIA
 * GPU or NVML cannot be loaded or does not know it; nothing is left loaded
 * then. Free with wl_nvml_close(). */
void wl_nvml_open(const struct wl_nvml_target *target, struct wl_nvml **out, char *why,
		  size_t why_len);
void wl_nvml_close(struct wl_nvml *n);

/* NVML as a device's telemetry (device.h): its handle is a struct wl_nvml
 * that wl_nvml_open made, closed with the device. */
extern const struct wl_telemetry wl_nvml_telemetry;

/* The state now: {"sm_mhz", "mem_mhz", "max_sm_mhz", "max_mem_mhz",
 * "temperature_c", "power_w", "throttle_reasons", "throttled"}. Caller owns. */
json_t *wl_nvml_state(struct wl_nvml *n);

/* The theoretical peak memory bandwidth in GB/s, or 0 when unknown. */
double wl_nvml_peak_gbps(struct wl_nvml *n);

/* Whether the GPU reports a reason that slows it down now: power or thermal
 * capping, or a hardware slowdown (idle and application clock settings do
 * not count). Samples taken meanwhile are discarded, as nvbench does. */
int wl_nvml_throttled(struct wl_nvml *n);

/* The GPU's total energy since the driver loaded, in millijoules, into
 * *mj (nvmlDeviceGetTotalEnergyConsumption, Volta and later): 0, or -1 with
 * why (an NVML without it, a GPU without the counter). */
int wl_nvml_energy_mj(struct wl_nvml *n, unsigned long long *mj, char *why, size_t why_len);

#endif
