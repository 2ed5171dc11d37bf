// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/drivers/usb/xhci_proc.c - /proc/usb: the xHCI controller and
 * what is on its root ports, as it is now (keyboards plugged in or out
 * after boot included):
 *
 *   xhci 00:03.0: 8 ports, 8 slots
 *   port 5: keyboard 0627:0001
 *
 * or one line saying there is no controller, or why it is not used.
 */
#include "arch/x86_64/drivers/usb/xhci.h"

#include <stdio.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/platform.h"

size_t xhci_show(char *buf, size_t size)
{
	size_t len;

	if (size == 0)
		return 0;
	/* The ports change from the boot CPU's tick. */
	unsigned long flags = spin_lock_irqsave(&xhci.info_lock);
	len = (size_t)snprintf(buf, size, "%s\n",
			       xhci.status[0] ? xhci.status : "not probed");
	for (unsigned int port = 1; port <= xhci.max_ports && len < size; port++)
		if (xhci.port_info[port][0])
			len += (size_t)snprintf(buf + len, size - len, "%s\n",
						xhci.port_info[port]);
	spin_unlock_irqrestore(&xhci.info_lock, flags);
	if (len >= size)
		len = size - 1;
	return len;
}

static int usb_read(struct ctl_node *file, char *buf, size_t size)
{
	return (int)xhci_show(buf, size);
}

static const struct ctl_ops usb_ops = {.read = usb_read};

void xhci_proc_init(void)
{
	struct ctl_node *proc;

	if (ctl_lookup(ctl_root(), "/proc", &proc) < 0)
		panic("xhci_proc_init: /proc is missing");
	if (!ctl_create_file(proc, "usb", &usb_ops, NULL))
		panic("xhci_proc_init: cannot create /proc/usb");
}
