/* Enumerating OpenCL platforms and devices and describing them. Ids are built
 * from the device name plus an ordinal among devices of that name, so they stay
 * the same across runner restarts on the same machine. */
#include "cl_device.h"

#include <CL/cl_ext.h>

#include "dev_buffer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Vendor queries for the SIMD width, where the platform offers them. */
#define WL_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define WL_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define WL_CL_DEVICE_WARP_SIZE_NV 0x4003
#define WL_CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043

const char *wl_cl_error_name(cl_int code)
{
	switch (code) {
#define E(x) case x: return #x
	E(CL_SUCCESS); E(CL_DEVICE_NOT_FOUND); E(CL_DEVICE_NOT_AVAILABLE);
	E(CL_COMPILER_NOT_AVAILABLE); E(CL_MEM_OBJECT_ALLOCATION_FAILURE);
	E(CL_OUT_OF_RESOURCES); E(CL_OUT_OF_HOST_MEMORY); E(CL_PROFILING_INFO_NOT_AVAILABLE);
	E(CL_MEM_COPY_OVERLAP); E(CL_IMAGE_FORMAT_MISMATCH); E(CL_IMAGE_FORMAT_NOT_SUPPORTED);
	E(CL_BUILD_PROGRAM_FAILURE); E(CL_MAP_FAILURE); E(CL_MISALIGNED_SUB_BUFFER_OFFSET);
	E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST); E(CL_COMPILE_PROGRAM_FAILURE);
	E(CL_LINKER_NOT_AVAILABLE); E(CL_LINK_PROGRAM_FAILURE); E(CL_DEVICE_PARTITION_FAILED);
	E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE); E(CL_INVALID_VALUE); E(CL_INVALID_DEVICE_TYPE);
	E(CL_INVALID_PLATFORM); E(CL_INVALID_DEVICE); E(CL_INVALID_CONTEXT);
	E(CL_INVALID_QUEUE_PROPERTIES); E(CL_INVALID_COMMAND_QUEUE); E(CL_INVALID_HOST_PTR);
	E(CL_INVALID_MEM_OBJECT); E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR); E(CL_INVALID_IMAGE_SIZE);
	E(CL_INVALID_SAMPLER); E(CL_INVALID_BINARY); E(CL_INVALID_BUILD_OPTIONS);
	E(CL_INVALID_PROGRAM); E(CL_INVALID_PROGRAM_EXECUTABLE); E(CL_INVALID_KERNEL_NAME);
	E(CL_INVALID_KERNEL_DEFINITION); E(CL_INVALID_KERNEL); E(CL_INVALID_ARG_INDEX);
	E(CL_INVALID_ARG_VALUE); E(CL_INVALID_ARG_SIZE); E(CL_INVALID_KERNEL_ARGS);
	E(CL_INVALID_WORK_DIMENSION); E(CL_INVALID_WORK_GROUP_SIZE); E(CL_INVALID_WORK_ITEM_SIZE);
	E(CL_INVALID_GLOBAL_OFFSET); E(CL_INVALID_EVENT_WAIT_LIST); E(CL_INVALID_EVENT);
	E(CL_INVALID_OPERATION); E(CL_INVALID_GL_OBJECT); E(CL_INVALID_BUFFER_SIZE);
	E(CL_INVALID_MIP_LEVEL); E(CL_INVALID_GLOBAL_WORK_SIZE); E(CL_INVALID_PROPERTY);
	E(CL_INVALID_IMAGE_DESCRIPTOR); E(CL_INVALID_COMPILER_OPTIONS);
	E(CL_INVALID_LINKER_OPTIONS); E(CL_INVALID_DEVICE_PARTITION_COUNT);
#undef E
	case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
	}
	return "CL_UNKNOWN_ERROR";
}

static char *info_string(cl_device_id d, cl_device_info what)
{
	size_t size = 0;
	char *s;

	if (clGetDeviceInfo(d, what, 0, NULL, &size) != CL_SUCCESS || size == 0)
		return strdup("");
	s = calloc(1, size + 1);
	if (s && clGetDeviceInfo(d, what, size, s, NULL) != CL_SUCCESS)
		s[0] = '\0';
	/* Some drivers pad names with spaces. */
	for (size_t i = s ? strlen(s) : 0; i > 0 && s[i - 1] == ' '; i--)
		s[i - 1] = '\0';
	return s;
}

static char *platform_string(cl_platform_id p, cl_platform_info what)
{
	size_t size = 0;
	char *s;

	if (clGetPlatformInfo(p, what, 0, NULL, &size) != CL_SUCCESS || size == 0)
		return strdup("");
	s = calloc(1, size + 1);
	if (s && clGetPlatformInfo(p, what, size, s, NULL) != CL_SUCCESS)
		s[0] = '\0';
	return s;
}

static int has_extension(cl_device_id d, const char *ext)
{
	char *exts = info_string(d, CL_DEVICE_EXTENSIONS);
	int found = 0;

	if (exts) {
		for (char *tok = strtok(exts, " "); tok; tok = strtok(NULL, " "))
			if (strcmp(tok, ext) == 0)
				found = 1;
	}
	free(exts);
	return found;
}

static json_t *warp_width(cl_device_id d)
{
	cl_uint w = 0;

	if (has_extension(d, "cl_nv_device_attribute_query") &&
	    clGetDeviceInfo(d, WL_CL_DEVICE_WARP_SIZE_NV, sizeof(w), &w, NULL) == CL_SUCCESS && w)
		return json_integer(w);
	if (has_extension(d, "cl_amd_device_attribute_query") &&
	    clGetDeviceInfo(d, WL_CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof(w), &w, NULL) == CL_SUCCESS &&
	    w)
		return json_integer(w);
	return json_null();
}

/* NVIDIA's compute capability ("9.0"), which names the architecture's
 * occupancy limits (kernels/gpu_limits.json); null for other devices. */
static json_t *compute_capability(cl_device_id d)
{
	cl_uint major = 0, minor = 0;
	char text[24];

	if (!has_extension(d, "cl_nv_device_attribute_query") ||
	    clGetDeviceInfo(d, WL_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof(major), &major, NULL) != CL_SUCCESS ||
	    clGetDeviceInfo(d, WL_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof(minor), &minor, NULL) != CL_SUCCESS ||
	    major == 0)
		return json_null();
	snprintf(text, sizeof(text), "%u.%u", major, minor);
	return json_string(text);
}

/* From cl_ext.h's cl_nv_device_attribute_query, for drivers without the
 * Khronos extension. */
#define CL_DEVICE_PCI_BUS_ID_NV 0x4008
#define CL_DEVICE_PCI_SLOT_ID_NV 0x4009
#define CL_DEVICE_PCI_DOMAIN_ID_NV 0x400A

/* d's PCI address, from cl_khr_pci_bus_info, else NVIDIA's
 * cl_nv_device_attribute_query. 0 with *out set; -1 where the device reports
 * none (a CPU, most drivers but NVIDIA's and AMD's). */
static int pci_address(cl_device_id d, struct wl_pci_address *out)
{
	cl_device_pci_bus_info_khr khr;
	cl_uint dom = 0, b = 0, s = 0;

	if (clGetDeviceInfo(d, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof(khr), &khr, NULL) == CL_SUCCESS) {
		*out = (struct wl_pci_address){ khr.pci_domain, khr.pci_bus, khr.pci_device, khr.pci_function };
		return 0;
	}
	if (clGetDeviceInfo(d, CL_DEVICE_PCI_BUS_ID_NV, sizeof(b), &b, NULL) != CL_SUCCESS ||
	    clGetDeviceInfo(d, CL_DEVICE_PCI_SLOT_ID_NV, sizeof(s), &s, NULL) != CL_SUCCESS)
		return -1;
	/* Older drivers lack the domain: 0 then, as on most machines. */
	if (clGetDeviceInfo(d, CL_DEVICE_PCI_DOMAIN_ID_NV, sizeof(dom), &dom, NULL) != CL_SUCCESS)
		dom = 0;
	*out = (struct wl_pci_address){ dom, b, s, 0 };
	return 0;
}

/* Fill dev's limits and API description from its OpenCL side cl; the id is
 * set by the caller. */
static int describe(struct wl_device *dev, const struct wl_cl_device *cl, struct wl_error *err)
{
	cl_device_type type = 0;
	cl_uint cu = 0, clock = 0;
	cl_ulong global = 0, max_alloc = 0, local = 0;
	cl_device_fp_config fp64 = 0;
	char *name = info_string(cl->device, CL_DEVICE_NAME);
	char *vendor = info_string(cl->device, CL_DEVICE_VENDOR);
	char *driver = info_string(cl->device, CL_DRIVER_VERSION);
	char *version = info_string(cl->device, CL_DEVICE_VERSION);
	char *platform = platform_string(cl->platform, CL_PLATFORM_NAME);
	int rc = -1;

	clGetDeviceInfo(cl->device, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
	clGetDeviceInfo(cl->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cu), &cu, NULL);
	dev->compute_units = cu ? cu : 1;
	clGetDeviceInfo(cl->device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(clock), &clock, NULL);
	clGetDeviceInfo(cl->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(global), &global, NULL);
	clGetDeviceInfo(cl->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc), &max_alloc, NULL);
	clGetDeviceInfo(cl->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local), &local, NULL);
	clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(dev->max_work_group),
			&dev->max_work_group, NULL);
	clGetDeviceInfo(cl->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp64), &fp64, NULL);
	dev->global_mem = global;
	dev->max_alloc = max_alloc;
	dev->local_mem = local;
	dev->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
	dev->fp64 = fp64 != 0;
	dev->has_pci = pci_address(cl->device, &dev->pci) == 0;
	if (!name || !vendor || !driver || !version || !platform) {
		wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
		goto out;
	}
	dev->info = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:b, s:o, s:I}",
			      "id", dev->id, "name", name, "vendor", vendor, "platform", platform,
			      "driver", driver, "opencl", version, "type",
			      dev->is_gpu ? "gpu" : (type & CL_DEVICE_TYPE_CPU) ? "cpu" : "accelerator",
			      "compute_units", (json_int_t)cu, "global_mem_bytes",
			      (json_int_t)dev->global_mem, "max_alloc_bytes",
			      (json_int_t)dev->max_alloc, "local_mem_bytes",
			      (json_int_t)dev->local_mem, "max_work_group_size",
			      (json_int_t)dev->max_work_group, "fp64", dev->fp64, "warp_width",
			      warp_width(cl->device), "clock_mhz", (json_int_t)clock);
	if (dev->info)
		json_object_set_new(dev->info, "compute_capability", compute_capability(cl->device));
	if (!dev->info) {
		wl_error_set(err, WL_ERR_INTERNAL, "cannot describe device %s", name);
		goto out;
	}
	rc = 0;
out:
	free(name);
	free(vendor);
	free(driver);
	free(version);
	free(platform);
	return rc;
}

int wl_cl_find(const char *only, const char *host, struct wl_devices *devs, struct wl_error *err)
{
	char prefix[72] = "";
	cl_platform_id platforms[16];
	cl_uint nplatforms = 0;
	cl_int rc;

	if (host && *host) {
		wl_device_slug(host, prefix, sizeof(prefix) - 1);
		strcat(prefix, "-");
	}
	rc = clGetPlatformIDs(16, platforms, &nplatforms);
	if (rc == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: no ICD installed */ || nplatforms == 0)
		return 0;
	if (rc != CL_SUCCESS) {
		wl_error_set(err, WL_ERR_INTERNAL, "clGetPlatformIDs: %s", wl_cl_error_name(rc));
		return -1;
	}
	if (nplatforms > 16)
		nplatforms = 16;
	/* Ordinals count every device seen, kept or filtered out, so an id does
	 * not change with --devices. */
	char seen[16 * 64][80];
	size_t nseen = 0;
	int nvidia = 0;

	for (cl_uint p = 0; p < nplatforms; p++) {
		cl_device_id ids[64];
		cl_uint nids = 0;

		if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 64, ids, &nids) != CL_SUCCESS)
			continue;
		if (nids > 64)
			nids = 64;
		for (cl_uint d = 0; d < nids; d++) {
			struct wl_device dev = { .nvidia_index = -1 };
			struct wl_cl_device *cl = calloc(1, sizeof(*cl));
			char *name = info_string(ids[d], CL_DEVICE_NAME);
			const char *vendor;
			char slug[80];
			int ordinal = 0;

			if (!cl) {
				free(name);
				wl_error_set(err, WL_ERR_INTERNAL, "out of memory");
				return -1;
			}
			*cl = (struct wl_cl_device){ .platform = platforms[p], .device = ids[d],
						     .nv_compiler = has_extension(ids[d], "cl_nv_device_attribute_query") };
			dev.api[WL_LANG_OPENCL] = cl;
			wl_device_slug(name ? name : "device", slug, sizeof(slug));
			free(name);
			for (size_t k = 0; k < nseen; k++)
				if (strcmp(seen[k], slug) == 0)
					ordinal++;
			memcpy(seen[nseen++], slug, sizeof(slug));
			snprintf(dev.id, sizeof(dev.id), "%s%s-%d", prefix, slug, ordinal);
			if (describe(&dev, cl, err) < 0) {
				wl_cl_detach(&dev);
				json_decref(dev.info);
				return -1;
			}
			vendor = json_string_value(json_object_get(dev.info, "vendor"));
			if (dev.is_gpu && vendor && strstr(vendor, "NVIDIA"))
				dev.nvidia_index = nvidia++;
			if (!wl_device_wanted(only, &dev)) {
				wl_cl_detach(&dev);
				json_decref(dev.info);
				continue;
			}
			if (wl_devices_add(devs, &dev, err) < 0) {
				wl_cl_detach(&dev);
				json_decref(dev.info);
				return -1;
			}
		}
	}
	return 0;
}

void wl_cl_detach(struct wl_device *dev)
{
	struct wl_cl_device *cl = wl_cl_of(dev);

	if (!cl)
		return;
	wl_cl_device_close(dev);
	free(cl);
	dev->api[WL_LANG_OPENCL] = NULL;
}

int wl_cl_device_open(struct wl_device *dev, struct wl_error *err)
{
	struct wl_cl_device *cl = wl_cl_of(dev);
	cl_context_properties props[] = { CL_CONTEXT_PLATFORM, 0, 0 };
	cl_int rc;

	if (!cl) {
		wl_error_set(err, WL_ERR_CONFIG, "%s is not an OpenCL device", dev->id);
		return -1;
	}
	if (cl->context)
		return 0;
	props[1] = (cl_context_properties)cl->platform;
	cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &rc);
	if (!cl->context) {
		wl_error_set(err, WL_ERR_INTERNAL, "clCreateContext on %s: %s", dev->id,
			     wl_cl_error_name(rc));
		return -1;
	}
	cl->queue = clCreateCommandQueue(cl->context, cl->device, CL_QUEUE_PROFILING_ENABLE, &rc);
	if (!cl->queue) {
		wl_error_set(err, WL_ERR_INTERNAL, "clCreateCommandQueue on %s: %s", dev->id,
			     wl_cl_error_name(rc));
		wl_cl_device_close(dev);
		return -1;
	}
	return 0;
}

static void staging_release(struct wl_cl_device *cl, struct wl_staging *st)
{
	if (st->ptr && cl->queue) {
		clEnqueueUnmapMemObject(cl->queue, st->mem, st->ptr, 0, NULL, NULL);
		clFinish(cl->queue);
	}
	if (st->mem)
		clReleaseMemObject(st->mem);
	memset(st, 0, sizeof(*st));
}

int wl_cl_device_staging(struct wl_device *dev, unsigned slot, size_t bytes, void **ptr,
			 struct wl_error *err)
{
	struct wl_cl_device *cl;
	struct wl_staging *st;
	size_t size;
	cl_int rc;

	if (wl_cl_device_open(dev, err) < 0)
		return -1;
	cl = wl_cl_of(dev);
	st = &cl->staging[slot & 1];
	if (bytes <= st->size) {
		*ptr = st->ptr;
		return 0;
	}
	size = wl_staging_size(bytes, st->size);
	staging_release(cl, st);
	if (size > dev->max_alloc)
		size = bytes;
	st->mem = clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL, &rc);
	if (st->mem)
		st->ptr = clEnqueueMapBuffer(cl->queue, st->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
					     size, 0, NULL, NULL, &rc);
	if (!st->mem || !st->ptr) {
		wl_error_set(err, WL_ERR_INTERNAL, "pinned host memory of %zu bytes on %s: %s", size,
			     dev->id, wl_cl_error_name(rc));
		staging_release(cl, st);
		return -1;
	}
	st->size = size;
	*ptr = st->ptr;
	return 0;
}

void wl_cl_device_close(struct wl_device *dev)
{
	struct wl_cl_device *cl = wl_cl_of(dev);

	if (!cl)
		return;
	staging_release(cl, &cl->staging[0]);
	staging_release(cl, &cl->staging[1]);
	if (cl->queue)
		clReleaseCommandQueue(cl->queue);
	if (cl->context)
		clReleaseContext(cl->context);
	cl->queue = NULL;
	cl->context = NULL;
}
