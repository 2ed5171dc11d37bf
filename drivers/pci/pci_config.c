// SPDX-License-Identifier: MIT
/*
 * drivers/pci/pci_config.c - the two ways to PCI configuration
 * space.
 *
 * ECAM (Enhanced Configuration Access Mechanism, PCI Express): every
 * function's 4 KiB of configuration space is memory, at
 *
 *     base + (bus - start_bus) << 20 | dev << 15 | fn << 12 | offset
 *
 * ACPI's MCFG table gives base and the bus range for each PCI segment
 * group (after the table header, 8 reserved bytes, then 16-byte entries:
 * base u64, segment u16, start bus u8, end bus u8, 4 reserved bytes).
 * QEMU's q35 machine has one; the older pc (i440fx) machine has none.
 *
 * Without it, the 1992 mechanism: write the address of a dword
 * (bit 31 enable, bus << 16, dev << 11, fn << 8, offset) to port 0xCF8 and
 * move the dword through port 0xCFC. It reaches the first 256 bytes only,
 * which is all tally needs. Its two accesses must not be split: a lock.
 */
#include "drivers/pci/pci_config.h"

#include <string.h>

#include "arch/x86_64/acpi.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/paging.h"
#include "kernel/base/spinlock.h"
#include "kernel/base/platform.h"

#define PCI_ADDR 0xcf8
#define PCI_DATA 0xcfc

struct mcfg_entry {
	uint64_t base;
	uint16_t segment;
	uint8_t start_bus, end_bus;
	uint32_t reserved;
} __attribute__((packed));

static struct {
	uint64_t base;          /* 0: use the ports */
	uint8_t start_bus, end_bus;
} ecam;

static spinlock_t port_lock = SPINLOCK_INIT;

/* find_mcfg - fill ecam from the MCFG's entry for segment 0, if any. */
static void find_mcfg(void)
{
	uint64_t phys = acpi_find_table("MCFG");
	if (!phys)
		return;
	const uint8_t *table = phys_to_virt(phys);
	uint32_t length;
	memcpy(&length, table + 4, 4);
	for (uint32_t off = 36 + 8; off + sizeof(struct mcfg_entry) <= length;
	     off += sizeof(struct mcfg_entry)) {
		struct mcfg_entry e;
		memcpy(&e, table + off, sizeof(e));
		if (e.segment == 0 && e.base && e.end_bus >= e.start_bus) {
			ecam.base = e.base;
			ecam.start_bus = e.start_bus;
			ecam.end_bus = e.end_bus;
			return;
		}
	}
}

const char *pci_config_init(void)
{
	find_mcfg();
	if (!ecam.base)
		return "ports";
	uint64_t buses = (uint64_t)(ecam.end_bus - ecam.start_bus) + 1;
	paging_map_uncached(ecam.base, buses << 20);  /* 1 MiB a bus */
	return "ECAM";
}

/* ecam_addr - the dword's address in the ECAM window, or NULL for a bus
 * outside the MCFG's range. */
static volatile uint32_t *ecam_addr(uint8_t bus, uint8_t dev, uint8_t fn,
				    uint16_t offset)
{
	if (bus < ecam.start_bus || bus > ecam.end_bus || dev > 31 || fn > 7 ||
	    offset > 4092)
		return NULL;
	uint64_t pa = ecam.base + ((uint64_t)(bus - ecam.start_bus) << 20) +
		      ((uint64_t)dev << 15) + ((uint64_t)fn << 12) +
		      (offset & ~3u);
	return phys_to_virt(pa);
}

static uint32_t port_address(uint8_t bus, uint8_t dev, uint8_t fn,
			     uint16_t offset)
{
	return 0x80000000u | (uint32_t)bus << 16 | (uint32_t)(dev & 31) << 11 |
	       (uint32_t)(fn & 7) << 8 | (offset & 0xfc);
}

uint32_t pci_config_read32(uint8_t bus, uint8_t dev, uint8_t fn,
			   uint16_t offset)
{
	if (ecam.base) {
		volatile uint32_t *p = ecam_addr(bus, dev, fn, offset);
		return p ? *p : 0xffffffffu;
	}
	if (offset > 252 || dev > 31 || fn > 7)
		return 0xffffffffu;
	unsigned long flags = spin_lock_irqsave(&port_lock);
	outl(PCI_ADDR, port_address(bus, dev, fn, offset));
	uint32_t v = inl(PCI_DATA);
	spin_unlock_irqrestore(&port_lock, flags);
	return v;
}

void pci_config_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t offset,
			uint32_t value)
{
	if (ecam.base) {
		volatile uint32_t *p = ecam_addr(bus, dev, fn, offset);
		if (p)
			*p = value;
		return;
	}
	if (offset > 252 || dev > 31 || fn > 7)
		return;
	unsigned long flags = spin_lock_irqsave(&port_lock);
	outl(PCI_ADDR, port_address(bus, dev, fn, offset));
	outl(PCI_DATA, value);
	spin_unlock_irqrestore(&port_lock, flags);
}
