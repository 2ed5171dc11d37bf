/* SPDX-License-Identifier: MIT */
/*
 * drivers/pci/pci_config.h - reading and writing PCI
 * configuration space, through ECAM when ACPI's MCFG describes it, else
 * through the legacy ports 0xCF8/0xCFC.
 */
#ifndef ARCH_X86_64_PCI_CONFIG_H
#define ARCH_X86_64_PCI_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

/*
 * pci_config_init - choose the access method: the MCFG's segment-0 range
 * (mapped uncached), or the ports. Call after acpi_init and paging_init.
 * Returns "ECAM" or "ports", for the boot message.
 */
const char *pci_config_init(void);

/* pci_config_read32 - the aligned dword at offset (0..4095 with ECAM,
 * 0..255 with the ports; 0xffffffff beyond) of bus:dev.fn. */
uint32_t pci_config_read32(uint8_t bus, uint8_t dev, uint8_t fn,
			   uint16_t offset);

/* pci_config_write32 - write the aligned dword at offset of bus:dev.fn
 * (ignored where pci_config_read32 would read 0xffffffff). */
void pci_config_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t offset,
			uint32_t value);

#endif
