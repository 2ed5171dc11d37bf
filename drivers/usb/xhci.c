// SPDX-License-Identifier: MIT
/*
 * drivers/usb/xhci.c - the xHCI (USB 3) host controller: taking
 * it from the firmware, resetting and starting it, its command and event
 * rings, and the timer tick that polls it.
 *
 * Start-up, in the order of xHCI 1.2 section 4.2:
 *   1. PCI: memory decoding and bus mastering on, INTx off (tally polls);
 *      BAR 0 mapped uncached.
 *   2. The BIOS/OS hand-off: if the controller has the USB legacy-support
 *      extended capability, set "OS owned" and wait for the firmware to
 *      clear "BIOS owned" (up to a second), then turn its SMIs off. On
 *      Intel 7/8 series chipsets, route the shared ports to xHCI.
 *   3. Stop (clear Run/Stop, wait for Halted), reset (HCRST), and wait for
 *      Controller Not Ready to clear.
 *   4. Program: the number of device slots, the device context base
 *      address array (with the scratchpad buffers the controller asks
 *      for in entry 0), the command ring (CRCR), and interrupter 0's event
 *      ring (a one-entry segment table: ERSTSZ, ERDP, ERSTBA).
 *   5. Run, and send a No-Op command: a controller that does not answer it
 *      within a second is reported once and left alone.
 *   6. Each root port with a device on it: xhci_device.c (and xhci_hub.c
 *      for what is behind a hub).
 *
 * Events are not signalled by interrupt: the controller writes them to the
 * event ring in memory whether or not interrupts are on, so the boot CPU's
 * timer tick (xhci_tick, a TICK_HOOK: 1000 times a second) looks at the
 * next event's cycle bit - a read of ordinary memory - and handles what
 * is there: keyboard reports, key repeat, and port changes, which it only
 * notes. While tally waits for a command or a control transfer (at boot,
 * or when a keyboard is plugged in), it calls the same event loop in a
 * busy wait.
 *
 * Hot-plug runs in a system task, khubd (as Linux's hub thread was once
 * called): a port's connect change is looked at PORT_DEBOUNCE_MS later,
 * and a new device is set up there, waiting for its port reset and
 * transfers (a few tens of milliseconds on hardware) in a task that the
 * scheduler can move or preempt, not in an interrupt. The controllers are
 * touched at boot before interrupts are on, then by the tick and by khubd
 * in turn: whoever holds xhci_busy. khubd waits for it; the tick skips a
 * tick while khubd holds it (khubd's own waits take events meanwhile).
 */
#include "drivers/usb/xhci.h"

#include <stdio.h>
#include <string.h>

#include "arch/x86_64/lapic.h"
#include "drivers/pci/pci.h"
#include "drivers/serial/serial.h"
#include "arch/x86_64/paging.h"
#include "kernel/sched/fork.h"
#include "kernel/base/initcall.h"
#include "kernel/base/panic.h"
#include "kernel/base/platform.h"
#include "kernel/sched/program.h"
#include "kernel/sched/wait.h"
#include "kernel/time/time.h"
#include "mm/buddy.h"
#include "mm/page.h"

#define CMD_TRBS    64
#define EVENT_TRBS  256
#define MAX_SCRATCHPADS 256
_Static_assert(sizeof(((struct xhci_hc_dma *)0)->cmd) == CMD_TRBS * 16,
	       "cmd ring");
_Static_assert(sizeof(((struct xhci_hc_dma *)0)->events) == EVENT_TRBS * 16,
	       "event ring");
_Static_assert(sizeof(((struct xhci_hc_dma *)0)->scratchpad_array) ==
	       MAX_SCRATCHPADS * 8, "scratchpad array");
#define PORT_DEBOUNCE_MS 100   /* USB 2.0 7.1.7.3: wait after a connect */

struct xhci xhci_hcs[XHCI_MAX_HCS];
unsigned int xhci_nr_hcs;
unsigned int xhci_nr_found;
spinlock_t xhci_info_lock = SPINLOCK_INIT;

static struct xhci_hc_dma hc_dma[XHCI_MAX_HCS];

uint64_t xhci_dma(const void *p)
{
	uint64_t va = (uint64_t)(uintptr_t)p;

	if (va < KERNEL_VMA)
		panic("xhci_dma: %p is not in the kernel image "
		      "(.bss DMA memory)", p);
	return va - KERNEL_VMA;
}

void xhci_set_device_context(struct xhci *hc, unsigned int slot, uint64_t phys)
{
	if (slot == 0 || slot > hc->max_slots)
		panic("xhci_set_device_context: slot %u of %u", slot,
		      hc->max_slots);
	hc->dma->dcbaa[slot] = phys;
}

void xhci_ring_doorbell(struct xhci *hc, unsigned int slot, unsigned int target)
{
	__asm__ volatile("" ::: "memory");  /* the TRBs are written first */
	hc->db[slot] = target;
}

/* wait_op - poll operational register off until (value & mask) == want,
 * for up to ms milliseconds. */
static bool wait_op(struct xhci *hc, uint32_t off, uint32_t mask, uint32_t want,
		    unsigned int ms)
{
	for (unsigned int i = 0; i <= ms * 10; i++) {
		if ((xhci_read32(hc->op, off) & mask) == want)
			return true;
		udelay(100);
	}
	return false;
}

/* --- events --------------------------------------------------------------- */

static void port_event(struct xhci *hc, unsigned int port, uint64_t now_ms)
{
	if (port == 0 || port > hc->max_ports)
		return;
	uint32_t sc = xhci_read32(hc->op, OP_PORTSC(port));
	/* Acknowledge the changes (write 1 to clear) without touching the
	 * rest: PED and PR are written as 0, which leaves them alone. */
	xhci_write32(hc->op, OP_PORTSC(port),
		     (sc & ~(PORTSC_PED | PORTSC_PR | PORTSC_CHANGES |
			     (1u << 16) | (1u << 31))) |
			     (sc & PORTSC_CHANGES));
	if (sc & PORTSC_CSC)
		hc->port_check_at[port] = now_ms + PORT_DEBOUNCE_MS;
}

static void handle_event(struct xhci *hc, const struct xhci_trb *ev,
			 uint64_t now_ms)
{
	unsigned int slot = ev->control >> 24;
	unsigned int dci = (ev->control >> 16) & 0x1f;
	unsigned int cc = ev->status >> 24;

	switch (TRB_GET_TYPE(ev->control)) {
	case TRB_EV_COMMAND:
		hc->done_trb = ev->param;
		hc->done_status = ev->status;
		hc->done_control = ev->control;
		break;
	case TRB_EV_TRANSFER:
		if (hc->wait_slot && slot == hc->wait_slot &&
		    dci == hc->wait_dci) {
			hc->done_trb = ev->param;
			hc->done_status = ev->status;
			hc->done_control = ev->control;
			if (cc != CC_SUCCESS && cc != CC_SHORT_PACKET)
				hc->done_error = true;
		} else {
			xhci_transfer_event(hc, ev, now_ms);
		}
		break;
	case TRB_EV_PORT:
		port_event(hc, (unsigned int)(ev->param >> 24) & 0xff, now_ms);
		break;
	default:
		break;  /* host controller, MFINDEX wrap, ...: nothing to do */
	}
}

/* process_events - handle every event the controller has written, then
 * tell it how far tally has read (ERDP, clearing Event Handler Busy). */
static void process_events(struct xhci *hc, uint64_t now_ms)
{
	const struct xhci_trb *ev;
	uint64_t deq = 0;

	while ((ev = xhci_event_peek(&hc->events)) != NULL) {
		struct xhci_trb copy = *ev;
		deq = xhci_event_pop(&hc->events);
		handle_event(hc, &copy, now_ms);
	}
	if (deq)
		xhci_write64(hc->rt, RT_ERDP, deq | ERDP_EHB);
}

int xhci_wait_trb(struct xhci *hc, uint64_t trb, unsigned int slot,
		  unsigned int dci, unsigned int timeout_ms)
{
	hc->done_trb = 0;
	hc->done_error = false;
	hc->wait_slot = (uint8_t)slot;
	hc->wait_dci = (uint8_t)dci;
	for (unsigned int i = 0; i <= timeout_ms * 10; i++) {
		process_events(hc, uptime_ms());
		if (hc->done_trb == trb || hc->done_error) {
			hc->wait_slot = 0;
			return (int)(hc->done_status >> 24);
		}
		udelay(100);
	}
	hc->wait_slot = 0;
	return -1;
}

int xhci_command(struct xhci *hc, uint64_t param, uint32_t status,
		 uint32_t control)
{
	uint64_t trb = xhci_ring_push(&hc->cmd, param, status, control);

	xhci_ring_doorbell(hc, 0, 0);
	return xhci_wait_trb(hc, trb, 0, 0, 1000);
}

/* --- start-up ------------------------------------------------------------- */

/* bios_handoff - step 2: the legacy-support capability, if there is one. */
static void bios_handoff(struct xhci *hc)
{
	uint32_t off = (xhci_read32(hc->cap, CAP_HCCPARAMS1) >> 16) << 2;

	for (int n = 0; off && n < 64; n++) {
		uint32_t v = xhci_read32(hc->cap, off);
		if ((v & 0xff) == XCAP_LEGACY) {
			/* The OS-owned semaphore is byte 3 of the register. */
			*(volatile uint8_t *)(hc->cap + off + 3) = 1;
			bool freed = false;
			for (int i = 0; i < 10000 && !freed; i++) {
				freed = !(xhci_read32(hc->cap, off) &
					  LEGACY_BIOS_OWNED);
				if (!freed)
					udelay(100);
			}
			if (!freed) {
				printk("xhci %02x:%02x.%x: the firmware kept "
				       "the controller for 1 s; taking it\n",
				       hc->bus, hc->dev, hc->fn);
				*(volatile uint8_t *)(hc->cap + off + 2) = 0;
			}
			uint32_t ctl = xhci_read32(hc->cap, off + 4);
			xhci_write32(hc->cap, off + 4,
				     (ctl & ~LEGACY_SMI_ENABLES) |
					     LEGACY_SMI_EVENTS);
			return;
		}
		uint32_t next = (v >> 8) & 0xff;
		off = next ? off + next * 4 : 0;
	}
}

/*
 * intel_port_routing - on Intel's 7 and 8 series chipsets (Panther Point,
 * Lynx Point) the USB ports are shared by an EHCI and the xHCI controller,
 * and come out of the firmware routed to the EHCI one: a keyboard plugged
 * into them is invisible to xHCI. Two PCI registers of the xHCI function
 * switch them over - USB3_PSSEN (0xd8) the SuperSpeed side, XUSB2PR (0xd0)
 * the USB 2 side - each to the ports its mask register (0xdc, 0xd4) says
 * may be switched.
 */
static void intel_port_routing(const struct pci_dev *d)
{
	if (d->vendor != 0x8086 ||
	    (d->device != 0x1e31 && d->device != 0x8c31 && d->device != 0x9c31))
		return;
	pci_write32(d, 0xd8, pci_read32(d, 0xdc));
	pci_write32(d, 0xd0, pci_read32(d, 0xd4));
}

/* scratchpads - entry 0 of the DCBAA: the pages the controller asked for
 * (HCSPARAMS2) to keep its own state in. False if there is no memory. */
static bool scratchpads(struct xhci *hc)
{
	uint32_t p2 = xhci_read32(hc->cap, CAP_HCSPARAMS2);
	unsigned int n = ((p2 >> 21) & 0x1f) << 5 | (p2 >> 27);

	if (n == 0)
		return true;
	if (n > MAX_SCRATCHPADS)
		return false;
	for (unsigned int i = 0; i < n; i++) {
		struct page *pg = alloc_page(__GFP_ZERO);
		if (!pg)
			return false;  /* kept: the controller is not used */
		hc->dma->scratchpad_array[i] = page_to_phys(pg);
	}
	hc->dma->dcbaa[0] = xhci_dma(hc->dma->scratchpad_array);
	return true;
}

/* start - steps 3 to 5; NULL, or what went wrong. */
static const char *start(struct xhci *hc)
{
	if (xhci_read32(hc->op, OP_USBSTS) == 0xffffffffu)
		return "its registers read all ones";
	if (!(xhci_read32(hc->op, OP_USBSTS) & USBSTS_HCH)) {
		xhci_write32(hc->op, OP_USBCMD,
			     xhci_read32(hc->op, OP_USBCMD) & ~USBCMD_RUN);
		if (!wait_op(hc, OP_USBSTS, USBSTS_HCH, USBSTS_HCH, 100))
			return "it did not halt";
	}
	xhci_write32(hc->op, OP_USBCMD, USBCMD_HCRST);
	udelay(1000);
	if (!wait_op(hc, OP_USBCMD, USBCMD_HCRST, 0, 1000) ||
	    !wait_op(hc, OP_USBSTS, USBSTS_CNR, 0, 1000))
		return "its reset did not finish";
	if (!(xhci_read32(hc->op, OP_PAGESIZE) & 1))
		return "it does not do 4 KiB pages";

	uint32_t p1 = xhci_read32(hc->cap, CAP_HCSPARAMS1);
	hc->max_slots = p1 & 0xff;
	if (hc->max_slots > XHCI_MAX_SLOTS)
		hc->max_slots = XHCI_MAX_SLOTS;
	hc->max_ports = p1 >> 24;
	if (hc->max_ports > XHCI_MAX_PORTS)
		hc->max_ports = XHCI_MAX_PORTS;
	hc->ctx_size = 32;
	if (xhci_read32(hc->cap, CAP_HCCPARAMS1) & (1u << 2))
		hc->ctx_size = 64;  /* CSZ: contexts of 64 bytes */
	if (hc->max_slots == 0 || hc->max_ports == 0)
		return "it has no slots or no ports";
	xhci_write32(hc->op, OP_CONFIG, hc->max_slots);

	memset(hc->dma, 0, sizeof(*hc->dma));
	if (!scratchpads(hc))
		return "no memory for its scratchpad pages";
	xhci_write64(hc->op, OP_DCBAAP, xhci_dma(hc->dma->dcbaa));
	xhci_write64(hc->op, OP_CRCR,
		     xhci_ring_init(&hc->cmd, hc->dma->cmd,
				    xhci_dma(hc->dma->cmd), CMD_TRBS));
	xhci_event_ring_init(&hc->events, hc->dma->events,
			     xhci_dma(hc->dma->events), EVENT_TRBS);
	hc->dma->erst[0].base = xhci_dma(hc->dma->events);
	hc->dma->erst[0].size = EVENT_TRBS;
	xhci_write32(hc->rt, RT_ERSTSZ, 1);
	xhci_write64(hc->rt, RT_ERDP, xhci_dma(hc->dma->events));
	xhci_write64(hc->rt, RT_ERSTBA, xhci_dma(hc->dma->erst));
	xhci_write32(hc->rt, RT_IMAN, 1);  /* clear IP; IE stays off */

	xhci_write32(hc->op, OP_USBCMD, USBCMD_RUN);
	if (!wait_op(hc, OP_USBSTS, USBSTS_HCH, 0, 100))
		return "it did not start";
	if (xhci_command(hc, 0, 0, TRB_TYPE(TRB_NOOP_CMD)) != CC_SUCCESS)
		return "it did not answer a No-Op command";
	return NULL;
}

/* power_ports - ports with power switches come out of reset unpowered. */
static void power_ports(struct xhci *hc)
{
	bool waited = false;

	for (unsigned int port = 1; port <= hc->max_ports; port++) {
		uint32_t sc = xhci_read32(hc->op, OP_PORTSC(port));
		if (sc & PORTSC_PP)
			continue;
		xhci_write32(hc->op, OP_PORTSC(port), PORTSC_PP);
		waited = true;
	}
	if (waited)
		udelay(20000);  /* power good */
}

/* scan_ports - step 6: every port with a device on it now. */
static void scan_ports(struct xhci *hc)
{
	for (unsigned int port = 1; port <= hc->max_ports; port++) {
		uint32_t sc = xhci_read32(hc->op, OP_PORTSC(port));
		xhci_write32(hc->op, OP_PORTSC(port),
			     (sc & ~(PORTSC_PED | PORTSC_PR | PORTSC_CHANGES |
				     (1u << 16) | (1u << 31))) |
			     (sc & PORTSC_CHANGES));
	}
	process_events(hc, uptime_ms());
	for (unsigned int port = 1; port <= hc->max_ports; port++) {
		hc->port_check_at[port] = 0;
		if (xhci_read32(hc->op, OP_PORTSC(port)) & PORTSC_CCS)
			xhci_port_connected(hc, port);
	}
}

/* probe - steps 1 to 6 for the controller at PCI function d. */
static void probe(struct xhci *hc, const struct pci_dev *d)
{
	hc->bus = d->bus;
	hc->dev = d->dev;
	hc->fn = d->fn;
	hc->dma = &hc_dma[hc->index];

	uint64_t size;
	uint64_t bar = pci_bar_mem(d, 0, &size);
	if (!bar || size < 0x1000) {
		snprintf(hc->status, sizeof(hc->status),
			 "xhci %02x:%02x.%x: BAR 0 is not assigned: ignored",
			 d->bus, d->dev, d->fn);
		printk("%s\n", hc->status);
		return;
	}
	uint32_t cmd = pci_read32(d, PCI_COMMAND) & 0xffff;
	pci_write32(d, PCI_COMMAND,
		    cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
			    PCI_COMMAND_INTX_OFF);
	paging_map_uncached(bar, size);
	hc->cap = phys_to_virt(bar);
	hc->op = hc->cap + *(volatile uint8_t *)hc->cap;
	hc->rt = hc->cap + (xhci_read32(hc->cap, CAP_RTSOFF) & ~0x1fu);
	uint32_t dboff = xhci_read32(hc->cap, CAP_DBOFF) & ~0x3u;
	hc->db = (volatile uint32_t *)(hc->cap + dboff);

	bios_handoff(hc);
	intel_port_routing(d);
	const char *err = start(hc);
	if (err) {
		snprintf(hc->status, sizeof(hc->status),
			 "xhci %02x:%02x.%x: %s: ignored", d->bus, d->dev,
			 d->fn, err);
		printk("%s (no USB keyboard on it)\n", hc->status);
		xhci_write32(hc->op, OP_USBCMD, 0);
		return;
	}
	snprintf(hc->status, sizeof(hc->status),
		 "xhci %02x:%02x.%x: %u ports, %u slots", d->bus, d->dev, d->fn,
		 hc->max_ports, hc->max_slots);
	hc->present = true;
	power_ports(hc);
	scan_ports(hc);
	hc->running = true;
}

void xhci_init(void)
{
	/* Every function of class 0c0330: serial bus, USB, xHCI. */
	for (size_t i = 0; i < pci_device_count(); i++)
		if (pci_device(i)->class == 0x0c0330)
			xhci_nr_found++;
	for (size_t i = 0; i < pci_device_count(); i++) {
		const struct pci_dev *d = pci_device(i);
		if (d->class != 0x0c0330)
			continue;
		if (xhci_nr_hcs == XHCI_MAX_HCS) {
			printk("xhci %02x:%02x.%x: more than %d "
			       "controllers: ignored\n",
			       d->bus, d->dev, d->fn, XHCI_MAX_HCS);
			continue;
		}
		struct xhci *hc = &xhci_hcs[xhci_nr_hcs];
		hc->index = xhci_nr_hcs++;
		probe(hc, d);
	}
	if (xhci_nr_hcs == 0) {
		/* The screen stays as it was on a machine without one; the
		 * serial line, a log, says it once. */
		for (const char *s =
			     "usb: no xHCI controller: no USB keyboard\n";
		     *s; s++) {
			if (*s == '\n')
				serial_putc('\r');
			serial_putc(*s);
		}
	}
}

INITCALL(device, xhci_init);

/* --- the tick and khubd ------------------------------------------------- */

/* Held by whoever touches the controllers after boot: the tick or khubd. */
static bool xhci_busy;
/* Set by the tick when a port or a hub needs khubd; khubd clears it. */
static bool hotplug_pending = true;
static DECLARE_WAIT_QUEUE_HEAD(hotplug_wq);

static bool xhci_trylock(void)
{
	return !__atomic_exchange_n(&xhci_busy, true, __ATOMIC_ACQUIRE);
}

static void xhci_unlock(void)
{
	__atomic_store_n(&xhci_busy, false, __ATOMIC_RELEASE);
}

/* hotplug_due - has a port's debounce time passed, or a hub spoken?
 * xhci_busy held. */
static bool hotplug_due(uint64_t now)
{
	for (unsigned int i = 0; i < xhci_nr_hcs; i++) {
		struct xhci *hc = &xhci_hcs[i];
		if (!hc->running)
			continue;
		for (unsigned int port = 1; port <= hc->max_ports; port++) {
			uint64_t at = hc->port_check_at[port];
			if (at && now >= at)
				return true;
		}
	}
	return xhci_hubs_changed();
}

/* xhci_tick - the boot CPU's tick: take events, repeat held keys, and
 * wake khubd when a port or a hub needs it. */
static void xhci_tick(void)
{
	uint64_t now;
	bool any = false, due;

	if (this_cpu()->id != 0 || !xhci_trylock())
		return;
	now = uptime_ms();
	for (unsigned int i = 0; i < xhci_nr_hcs; i++) {
		struct xhci *hc = &xhci_hcs[i];
		if (!hc->running)
			continue;
		any = true;
		process_events(hc, now);
	}
	if (any)
		xhci_devices_tick(now);
	due = any && hotplug_due(now);
	xhci_unlock();
	if (due && !__atomic_exchange_n(&hotplug_pending, true,
					__ATOMIC_ACQ_REL))
		wake_up_all(&hotplug_wq);
}
TICK_HOOK(xhci_tick);

/* hotplug_ports - each port whose debounce time has passed: the old device
 * is gone (a disconnect, or a disconnect and a new connect since the last
 * look), and a device there now is set up. xhci_busy held. */
static void hotplug_ports(uint64_t now)
{
	for (unsigned int i = 0; i < xhci_nr_hcs; i++) {
		struct xhci *hc = &xhci_hcs[i];
		if (!hc->running)
			continue;
		for (unsigned int port = 1; port <= hc->max_ports; port++) {
			uint64_t at = hc->port_check_at[port];
			if (!at || now < at)
				continue;
			hc->port_check_at[port] = 0;
			xhci_port_disconnected(hc, port);
			if (xhci_read32(hc->op, OP_PORTSC(port)) & PORTSC_CCS)
				xhci_port_connected(hc, port);
		}
	}
}

/* khubd_main - the hot-plug task: sleep until the tick says a port or a
 * hub changed, then take the controllers and set up or forget devices. */
static void khubd_main(struct task *self, const char *arg)
{
	for (;;) {
		wait_event(&hotplug_wq,
			   __atomic_load_n(&hotplug_pending, __ATOMIC_ACQUIRE));
		__atomic_store_n(&hotplug_pending, false, __ATOMIC_RELEASE);
		while (!xhci_trylock())
			msleep(1);
		hotplug_ports(uptime_ms());
		xhci_hubs_check();
		xhci_unlock();
	}
}

static const struct program khubd_program = {
	.name = "khubd",
	.main = khubd_main,
};

/* xhci_hotplug_start - start khubd, where a controller runs. */
static void xhci_hotplug_start(void)
{
	bool any = false;

	for (unsigned int i = 0; i < xhci_nr_hcs; i++)
		any |= xhci_hcs[i].running;
	if (any && task_spawn_system(&khubd_program, "") < 0)
		panic("xhci: cannot create the khubd task");
}
INITCALL(task, xhci_hotplug_start);
