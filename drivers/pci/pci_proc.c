// SPDX-License-Identifier: MIT
/*
 * drivers/pci/pci_proc.c - /proc/pci: the functions pci_init
 * found, one a line, as lspci -n shows them without the labels:
 *
 *   00:04.0 1b36:000d 0c0330
 *
 * bus:device.function, vendor:device, class code (class, subclass,
 * programming interface; 0c0330 is a USB xHCI controller).
 */
#include "drivers/pci/pci.h"

#include "kernel/fs/ctlfs.h"
#include "kernel/base/initcall.h"
#include "kernel/base/platform.h"

static int pci_read(struct ctl_node *file, char *buf, size_t size)
{
	return (int)pci_show(buf, size);
}

static const struct ctl_ops pci_ops = {.read = pci_read};

void pci_proc_init(void)
{
	struct ctl_node *proc;

	if (ctl_lookup(ctl_root(), "/proc", &proc) < 0)
		panic("pci_proc_init: /proc is missing");
	if (!ctl_create_file(proc, "pci", &pci_ops, NULL))
		panic("pci_proc_init: cannot create /proc/pci");
}
INITCALL(fs, pci_proc_init);
