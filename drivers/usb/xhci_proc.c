// SPDX-License-Identifier: MIT
/*
 * drivers/usb/xhci_proc.c - /proc/usb: the xHCI controller and
 * what became of each device on it, as it is now (devices plugged in or
 * out after boot included):
 *
 *   xhci 00:03.0: 8 ports, 8 slots
 *   port 5: hub 0409:55aa, 8 ports
 *   port 5.1: keyboard 0627:0001
 *
 * one such block per controller; or one line saying there is no
 * controller, or why one is not used. The
 * lines are notes the driver leaves (xhci_note) as it enumerates; while
 * the kernel boots they are printed too. Later they are not: a line
 * printed from the timer tick would land in the middle of what is being
 * typed at the prompt.
 */
#include "drivers/usb/xhci.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/base/initcall.h"
#include "kernel/base/platform.h"

void xhci_note(struct xhci *hc, const char *where, const char *fmt, ...)
{
	char text[sizeof(hc->notes[0].text)];
	va_list ap;

	va_start(ap, fmt);
	int n = snprintf(text, sizeof(text), "port %s: ", where);
	vsnprintf(text + n, sizeof(text) - (size_t)n, fmt, ap);
	va_end(ap);
	if (!hc->running && xhci_nr_found > 1)
		printk("usb %02x:%02x.%x: %s\n", hc->bus, hc->dev, hc->fn,
		       text);
	else if (!hc->running)
		printk("usb: %s\n", text);

	unsigned long flags = spin_lock_irqsave(&xhci_info_lock);
	struct xhci_note *free = NULL, *note = NULL;
	for (int i = 0; i < XHCI_MAX_NOTES && !note; i++) {
		if (!strcmp(hc->notes[i].where, where))
			note = &hc->notes[i];
		else if (!free && !hc->notes[i].where[0])
			free = &hc->notes[i];
	}
	if (!note)
		note = free;    /* none free: the note is dropped */
	if (note) {
		snprintf(note->where, sizeof(note->where), "%s", where);
		memcpy(note->text, text, sizeof(text));
	}
	spin_unlock_irqrestore(&xhci_info_lock, flags);
}

void xhci_note_clear(struct xhci *hc, const char *where)
{
	size_t len = strlen(where);
	unsigned long flags = spin_lock_irqsave(&xhci_info_lock);

	for (int i = 0; i < XHCI_MAX_NOTES; i++) {
		const char *w = hc->notes[i].where;
		if (!strncmp(w, where, len) && (w[len] == 0 || w[len] == '.'))
			hc->notes[i].where[0] = 0;
	}
	spin_unlock_irqrestore(&xhci_info_lock, flags);
}

size_t xhci_show(char *buf, size_t size)
{
	size_t len = 0;

	if (size == 0)
		return 0;
	buf[0] = 0;
	unsigned long flags = spin_lock_irqsave(&xhci_info_lock);
	if (xhci_nr_hcs == 0)
		len = (size_t)snprintf(buf, size, "no xHCI controller\n");
	for (unsigned int h = 0; h < xhci_nr_hcs && len < size; h++) {
		const struct xhci *hc = &xhci_hcs[h];
		len += (size_t)snprintf(buf + len, size - len, "%s\n",
					hc->status);
		for (int i = 0; i < XHCI_MAX_NOTES && len < size; i++)
			if (hc->notes[i].where[0])
				len += (size_t)snprintf(buf + len, size - len,
							"%s\n",
							hc->notes[i].text);
	}
	spin_unlock_irqrestore(&xhci_info_lock, flags);
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
INITCALL(fs, xhci_proc_init);
