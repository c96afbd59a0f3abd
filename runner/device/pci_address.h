/* A device's PCI address: how the OpenCL device, NVML and the CUDA driver
 * agree on which GPU is meant. */
#ifndef WL_PCI_ADDRESS_H
#define WL_PCI_ADDRESS_H

struct wl_pci_address {
	unsigned domain, bus, device, function;
};

#endif
