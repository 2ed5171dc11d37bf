/* SPDX-License-Identifier: MIT */
/*
 * drivers/pci/pci.h - the PCI functions found at boot, and
 * what drivers need of them (BARs, the command register).
 */
#ifndef ARCH_X86_64_PCI_H
#define ARCH_X86_64_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCI_MAX_DEVICES 128

/* Configuration-space offsets (type 0 header). */
#define PCI_VENDOR_ID     0x00  /* vendor 15:0, device 31:16 */
#define PCI_COMMAND       0x04  /* command 15:0, status 31:16 */
#define PCI_CLASS         0x08  /* revision 7:0, class code 31:8 */
#define PCI_HEADER        0x0c  /* header type 23:16, bit 23: multi-function */
#define PCI_BAR0          0x10
#define PCI_SECONDARY_BUS 0x18  /* type 1 (bridge): secondary bus 15:8 */

#define PCI_COMMAND_MEMORY     (1u << 1)
#define PCI_COMMAND_MASTER     (1u << 2)
#define PCI_COMMAND_INTX_OFF   (1u << 10)

struct pci_dev {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
	uint32_t class;          /* class 23:16, subclass 15:8, prog-if 7:0 */
	uint8_t header_type;     /* without the multi-function bit */
};

/*
 * pci_init - choose the configuration access (pci_config_init) and walk
 * every bus, device and function, recording each that answers. Quiet
 * (the list is /proc/pci). Call after acpi_init and paging_init.
 */
void pci_init(void);

/* pci_config_method - "ECAM" or "ports": how pci_init reached the
 * configuration space. */
const char *pci_config_method(void);

/* pci_device_count - how many functions pci_init found. */
size_t pci_device_count(void);

/* pci_device - the i-th function found (i < pci_device_count()), in
 * bus, device, function order. */
const struct pci_dev *pci_device(size_t i);

/* pci_read32, pci_write32 - a dword of the function's configuration space. */
uint32_t pci_read32(const struct pci_dev *d, uint16_t offset);
void pci_write32(const struct pci_dev *d, uint16_t offset, uint32_t value);

/*
 * pci_bar_mem - the physical address of memory BAR n (a 64-bit BAR takes
 * two slots), and its size in *size; 0 if it is an I/O BAR, unassigned, or
 * absent. Sizing writes all ones to the BAR with memory decoding off, and
 * puts everything back.
 */
uint64_t pci_bar_mem(const struct pci_dev *d, unsigned int n, uint64_t *size);

/* pci_show - the /proc/pci text: one line "bus:dev.fn vendor:device class"
 * (hex) per function, into buf; returns the length (at most size - 1). */
size_t pci_show(char *buf, size_t size);

/* pci_proc_init - add /proc/pci (/proc must exist). */
void pci_proc_init(void);

#endif
