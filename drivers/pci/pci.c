// SPDX-License-Identifier: MIT
/*
 * drivers/pci/pci.c - PCI enumeration: every bus, device and
 * function, once, at boot.
 *
 * A function exists if its vendor id is not 0xffff. Function 0 of a
 * device says in its header type (bit 7) whether functions 1-7 may exist.
 * The walk tries all 256 buses rather than following bridges: it is a few
 * thousand reads, done once, and it finds functions behind bridges that
 * the firmware numbered in any order. (Hot-plugged PCI devices are not
 * seen: the table is made at boot.)
 */
#include "drivers/pci/pci.h"

#include <stdio.h>

#include "drivers/pci/pci_config.h"
#include "kernel/base/initcall.h"
#include "kernel/base/platform.h"

static struct pci_dev devices[PCI_MAX_DEVICES];
static size_t nr_devices;
static size_t nr_missed;        /* found but no room in the table */
static const char *config_method = "none";

static void add_function(uint8_t bus, uint8_t dev, uint8_t fn, uint32_t id)
{
	if (nr_devices == PCI_MAX_DEVICES) {
		nr_missed++;
		return;
	}
	struct pci_dev *d = &devices[nr_devices++];
	d->bus = bus;
	d->dev = dev;
	d->fn = fn;
	d->vendor = id & 0xffff;
	d->device = id >> 16;
	d->class = pci_config_read32(bus, dev, fn, PCI_CLASS) >> 8;
	d->header_type = (pci_config_read32(bus, dev, fn, PCI_HEADER) >> 16) &
			 0x7f;
}

void pci_init(void)
{
	const char *how = pci_config_init();

	for (unsigned int bus = 0; bus < 256; bus++) {
		for (uint8_t dev = 0; dev < 32; dev++) {
			uint32_t id = pci_config_read32(bus, dev, 0,
							PCI_VENDOR_ID);
			if ((id & 0xffff) == 0xffff)
				continue;
			add_function(bus, dev, 0, id);
			uint32_t header = pci_config_read32(bus, dev, 0,
							    PCI_HEADER);
			if (!(header & (1u << 23)))
				continue;       /* single-function device */
			for (uint8_t fn = 1; fn < 8; fn++) {
				id = pci_config_read32(bus, dev, fn,
						       PCI_VENDOR_ID);
				if ((id & 0xffff) != 0xffff)
					add_function(bus, dev, fn, id);
			}
		}
	}
	config_method = how;
	if (nr_missed)
		printk("pci: %zu functions, only the first %d are used\n",
		       nr_devices + nr_missed, PCI_MAX_DEVICES);
}
INITCALL(bus, pci_init);

const char *pci_config_method(void)
{
	return config_method;
}

size_t pci_device_count(void)
{
	return nr_devices;
}

const struct pci_dev *pci_device(size_t i)
{
	if (i >= nr_devices)
		panic("pci_device: index %zu, but %zu functions", i,
		      nr_devices);
	return &devices[i];
}

uint32_t pci_read32(const struct pci_dev *d, uint16_t offset)
{
	return pci_config_read32(d->bus, d->dev, d->fn, offset);
}

void pci_write32(const struct pci_dev *d, uint16_t offset, uint32_t value)
{
	pci_config_write32(d->bus, d->dev, d->fn, offset, value);
}

uint64_t pci_bar_mem(const struct pci_dev *d, unsigned int n, uint64_t *size)
{
	*size = 0;
	if (d->header_type != 0 || n > 5)
		return 0;
	uint16_t off = PCI_BAR0 + 4 * n;
	uint32_t lo = pci_read32(d, off);
	if (lo & 1)
		return 0;               /* an I/O BAR */
	bool is64 = ((lo >> 1) & 3) == 2;
	if (is64 && n == 5)
		return 0;
	uint32_t hi = is64 ? pci_read32(d, off + 4) : 0;

	/* Size it: with decoding off, write ones and read back the mask. */
	uint32_t cmd = pci_read32(d, PCI_COMMAND);
	pci_write32(d, PCI_COMMAND, cmd & ~PCI_COMMAND_MEMORY & 0xffff);
	pci_write32(d, off, 0xffffffffu);
	uint64_t mask = pci_read32(d, off) & ~0xfu;
	if (is64) {
		pci_write32(d, off + 4, 0xffffffffu);
		mask |= (uint64_t)pci_read32(d, off + 4) << 32;
		pci_write32(d, off + 4, hi);
	} else {
		mask |= 0xffffffff00000000ull;
	}
	pci_write32(d, off, lo);
	pci_write32(d, PCI_COMMAND, cmd & 0xffff);

	uint64_t base = ((uint64_t)hi << 32) | (lo & ~0xfu);
	if (!base || !(mask & ~0xfull))
		return 0;
	*size = ~mask + 1;
	return base;
}

size_t pci_show(char *buf, size_t size)
{
	size_t len = 0;

	if (size == 0)
		return 0;
	buf[0] = 0;
	for (size_t i = 0; i < nr_devices && len < size; i++) {
		const struct pci_dev *d = &devices[i];
		len += (size_t)snprintf(buf + len, size - len,
					"%02x:%02x.%x %04x:%04x %06x\n", d->bus,
					d->dev, d->fn, d->vendor, d->device,
					(unsigned int)d->class);
	}
	if (len >= size)
		len = size - 1;
	return len;
}
