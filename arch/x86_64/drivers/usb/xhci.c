// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/drivers/usb/xhci.c - the xHCI (USB 3) host controller: taking
 * it from the firmware, resetting and starting it, its command and event
 * rings, and the timer tick that polls it.
 *
 * Start-up, in the order of xHCI 1.2 section 4.2:
 *   1. PCI: memory decoding and bus mastering on, INTx off (tally polls);
 *      BAR 0 mapped uncached.
 *   2. The BIOS/OS hand-off: if the controller has the USB legacy-support
 *      extended capability, set "OS owned" and wait for the firmware to
 *      clear "BIOS owned" (up to a second), then turn its SMIs off.
 *   3. Stop (clear Run/Stop, wait for Halted), reset (HCRST), and wait for
 *      Controller Not Ready to clear.
 *   4. Program: the number of device slots, the device context base
 *      address array (with the scratchpad buffers the controller asks
 *      for in entry 0), the command ring (CRCR), and interrupter 0's event
 *      ring (a one-entry segment table: ERSTSZ, ERDP, ERSTBA).
 *   5. Run, and send a No-Op command: a controller that does not answer it
 *      within a second is reported once and left alone.
 *   6. Each root port with a device on it: xhci_device.c.
 *
 * Events are not signalled by interrupt: the controller writes them to the
 * event ring in memory whether or not interrupts are on, so the boot CPU's
 * timer tick (xhci_tick, 1000 times a second) looks at the next event's
 * cycle bit - a read of ordinary memory - and handles what is there.
 * While tally waits for a command or a control transfer (at boot, or when
 * a keyboard is plugged in), it calls the same event loop in a busy wait.
 * Only the boot CPU touches the controller: at boot before interrupts are
 * on, then from its tick.
 */
#include "arch/x86_64/drivers/usb/xhci.h"

#include <stdio.h>
#include <string.h>

#include "arch/x86_64/apic/lapic.h"
#include "arch/x86_64/drivers/pci/pci.h"
#include "arch/x86_64/drivers/serial.h"
#include "arch/x86_64/paging.h"
#include "kernel/platform.h"
#include "kernel/time/time.h"
#include "mm/buddy.h"
#include "mm/page.h"

#define CMD_TRBS    64
#define EVENT_TRBS  256
#define MAX_SCRATCHPADS 256
#define PORT_DEBOUNCE_MS 100   /* USB 2.0 7.1.7.3: wait after a connect */

struct xhci xhci = {.info_lock = SPINLOCK_INIT};

static uint64_t dcbaa[256] __attribute__((aligned(4096)));
static uint64_t scratchpad_array[MAX_SCRATCHPADS] __attribute__((aligned(4096)));
static struct xhci_trb cmd_trbs[CMD_TRBS] __attribute__((aligned(1024)));
static struct xhci_trb event_trbs[EVENT_TRBS] __attribute__((aligned(4096)));
static struct {
	uint64_t base;
	uint32_t size;
	uint32_t reserved;
} erst[1] __attribute__((aligned(64)));

uint64_t xhci_dma(const void *p)
{
	uint64_t va = (uint64_t)(uintptr_t)p;

	if (va < KERNEL_VMA)
		panic("xhci_dma: %p is not in the kernel image (.bss DMA memory)", p);
	return va - KERNEL_VMA;
}

void xhci_set_device_context(unsigned int slot, uint64_t phys)
{
	if (slot == 0 || slot > xhci.max_slots)
		panic("xhci_set_device_context: slot %u of %u", slot, xhci.max_slots);
	dcbaa[slot] = phys;
}

void xhci_ring_doorbell(unsigned int slot, unsigned int target)
{
	__asm__ volatile("" ::: "memory");  /* the TRBs are written first */
	xhci.db[slot] = target;
}

/* wait_op - poll operational register off until (value & mask) == want,
 * for up to ms milliseconds. */
static bool wait_op(uint32_t off, uint32_t mask, uint32_t want, unsigned int ms)
{
	for (unsigned int i = 0; i <= ms * 10; i++) {
		if ((xhci_read32(xhci.op, off) & mask) == want)
			return true;
		udelay(100);
	}
	return false;
}

/* --- events --------------------------------------------------------------- */

static void port_event(unsigned int port, uint64_t now_ms)
{
	if (port == 0 || port > xhci.max_ports)
		return;
	uint32_t sc = xhci_read32(xhci.op, OP_PORTSC(port));
	/* Acknowledge the changes (write 1 to clear) without touching the
	 * rest: PED and PR are written as 0, which leaves them alone. */
	xhci_write32(xhci.op, OP_PORTSC(port),
		     (sc & ~(PORTSC_PED | PORTSC_PR | PORTSC_CHANGES | (1u << 16) |
			     (1u << 31))) | (sc & PORTSC_CHANGES));
	if (sc & PORTSC_CSC)
		xhci.port_check_at[port] = now_ms + PORT_DEBOUNCE_MS;
}

static void handle_event(const struct xhci_trb *ev, uint64_t now_ms)
{
	unsigned int slot = ev->control >> 24;
	unsigned int dci = (ev->control >> 16) & 0x1f;
	unsigned int cc = ev->status >> 24;

	switch (TRB_GET_TYPE(ev->control)) {
	case TRB_EV_COMMAND:
		xhci.done_trb = ev->param;
		xhci.done_status = ev->status;
		xhci.done_control = ev->control;
		break;
	case TRB_EV_TRANSFER:
		if (xhci.wait_slot && slot == xhci.wait_slot && dci == xhci.wait_dci) {
			xhci.done_trb = ev->param;
			xhci.done_status = ev->status;
			xhci.done_control = ev->control;
			if (cc != CC_SUCCESS && cc != CC_SHORT_PACKET)
				xhci.done_error = true;
		} else {
			xhci_transfer_event(ev, now_ms);
		}
		break;
	case TRB_EV_PORT:
		port_event((unsigned int)(ev->param >> 24) & 0xff, now_ms);
		break;
	default:
		break;      /* host controller, MFINDEX wrap, ...: nothing to do */
	}
}

/* process_events - handle every event the controller has written, then
 * tell it how far tally has read (ERDP, clearing Event Handler Busy). */
static void process_events(uint64_t now_ms)
{
	const struct xhci_trb *ev;
	uint64_t deq = 0;

	while ((ev = xhci_event_peek(&xhci.events)) != NULL) {
		struct xhci_trb copy = *ev;
		deq = xhci_event_pop(&xhci.events);
		handle_event(&copy, now_ms);
	}
	if (deq)
		xhci_write64(xhci.rt, RT_ERDP, deq | ERDP_EHB);
}

int xhci_wait_trb(uint64_t trb, unsigned int slot, unsigned int dci,
		  unsigned int timeout_ms)
{
	xhci.done_trb = 0;
	xhci.done_error = false;
	xhci.wait_slot = (uint8_t)slot;
	xhci.wait_dci = (uint8_t)dci;
	for (unsigned int i = 0; i <= timeout_ms * 10; i++) {
		process_events(uptime_ms());
		if (xhci.done_trb == trb || xhci.done_error) {
			xhci.wait_slot = 0;
			return (int)(xhci.done_status >> 24);
		}
		udelay(100);
	}
	xhci.wait_slot = 0;
	return -1;
}

int xhci_command(uint64_t param, uint32_t status, uint32_t control)
{
	uint64_t trb = xhci_ring_push(&xhci.cmd, param, status, control);

	xhci_ring_doorbell(0, 0);
	return xhci_wait_trb(trb, 0, 0, 1000);
}

/* --- start-up ------------------------------------------------------------- */

/* bios_handoff - step 2: the legacy-support capability, if there is one. */
static void bios_handoff(void)
{
	uint32_t off = (xhci_read32(xhci.cap, CAP_HCCPARAMS1) >> 16) << 2;

	for (int n = 0; off && n < 64; n++) {
		uint32_t v = xhci_read32(xhci.cap, off);
		if ((v & 0xff) == XCAP_LEGACY) {
			/* The OS-owned semaphore is byte 3 of the register. */
			*(volatile uint8_t *)(xhci.cap + off + 3) = 1;
			bool freed = false;
			for (int i = 0; i < 10000 && !freed; i++) {
				freed = !(xhci_read32(xhci.cap, off) & LEGACY_BIOS_OWNED);
				if (!freed)
					udelay(100);
			}
			if (!freed) {
				printk("xhci %02x:%02x.%x: the firmware kept the "
				       "controller for 1 s; taking it\n",
				       xhci.bus, xhci.dev, xhci.fn);
				*(volatile uint8_t *)(xhci.cap + off + 2) = 0;
			}
			uint32_t ctl = xhci_read32(xhci.cap, off + 4);
			xhci_write32(xhci.cap, off + 4,
				     (ctl & ~LEGACY_SMI_ENABLES) | LEGACY_SMI_EVENTS);
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
static bool scratchpads(void)
{
	uint32_t p2 = xhci_read32(xhci.cap, CAP_HCSPARAMS2);
	unsigned int n = ((p2 >> 21) & 0x1f) << 5 | (p2 >> 27);

	if (n == 0)
		return true;
	if (n > MAX_SCRATCHPADS)
		return false;
	for (unsigned int i = 0; i < n; i++) {
		struct page *pg = alloc_page(__GFP_ZERO);
		if (!pg)
			return false;       /* kept: the controller is not used */
		scratchpad_array[i] = page_to_phys(pg);
	}
	dcbaa[0] = xhci_dma(scratchpad_array);
	return true;
}

/* start - steps 3 to 5; NULL, or what went wrong. */
static const char *start(void)
{
	if (xhci_read32(xhci.op, OP_USBSTS) == 0xffffffffu)
		return "its registers read all ones";
	if (!(xhci_read32(xhci.op, OP_USBSTS) & USBSTS_HCH)) {
		xhci_write32(xhci.op, OP_USBCMD,
			     xhci_read32(xhci.op, OP_USBCMD) & ~USBCMD_RUN);
		if (!wait_op(OP_USBSTS, USBSTS_HCH, USBSTS_HCH, 100))
			return "it did not halt";
	}
	xhci_write32(xhci.op, OP_USBCMD, USBCMD_HCRST);
	udelay(1000);
	if (!wait_op(OP_USBCMD, USBCMD_HCRST, 0, 1000) ||
	    !wait_op(OP_USBSTS, USBSTS_CNR, 0, 1000))
		return "its reset did not finish";
	if (!(xhci_read32(xhci.op, OP_PAGESIZE) & 1))
		return "it does not do 4 KiB pages";

	uint32_t p1 = xhci_read32(xhci.cap, CAP_HCSPARAMS1);
	xhci.max_slots = p1 & 0xff;
	if (xhci.max_slots > XHCI_MAX_SLOTS)
		xhci.max_slots = XHCI_MAX_SLOTS;
	xhci.max_ports = p1 >> 24;
	if (xhci.max_ports > XHCI_MAX_PORTS)
		xhci.max_ports = XHCI_MAX_PORTS;
	xhci.ctx_size = (xhci_read32(xhci.cap, CAP_HCCPARAMS1) & (1u << 2)) ? 64 : 32;
	if (xhci.max_slots == 0 || xhci.max_ports == 0)
		return "it has no slots or no ports";
	xhci_write32(xhci.op, OP_CONFIG, xhci.max_slots);

	memset(dcbaa, 0, sizeof(dcbaa));
	if (!scratchpads())
		return "no memory for its scratchpad pages";
	xhci_write64(xhci.op, OP_DCBAAP, xhci_dma(dcbaa));
	xhci_write64(xhci.op, OP_CRCR,
		     xhci_ring_init(&xhci.cmd, cmd_trbs, xhci_dma(cmd_trbs), CMD_TRBS));
	xhci_event_ring_init(&xhci.events, event_trbs, xhci_dma(event_trbs),
			     EVENT_TRBS);
	erst[0].base = xhci_dma(event_trbs);
	erst[0].size = EVENT_TRBS;
	xhci_write32(xhci.rt, RT_ERSTSZ, 1);
	xhci_write64(xhci.rt, RT_ERDP, xhci_dma(event_trbs));
	xhci_write64(xhci.rt, RT_ERSTBA, xhci_dma(erst));
	xhci_write32(xhci.rt, RT_IMAN, 1);  /* clear IP; IE stays off */

	xhci_write32(xhci.op, OP_USBCMD, USBCMD_RUN);
	if (!wait_op(OP_USBSTS, USBSTS_HCH, 0, 100))
		return "it did not start";
	if (xhci_command(0, 0, TRB_TYPE(TRB_NOOP_CMD)) != CC_SUCCESS)
		return "it did not answer a No-Op command";
	return NULL;
}

/* power_ports - ports with power switches come out of reset unpowered. */
static void power_ports(void)
{
	bool waited = false;

	for (unsigned int port = 1; port <= xhci.max_ports; port++) {
		uint32_t sc = xhci_read32(xhci.op, OP_PORTSC(port));
		if (sc & PORTSC_PP)
			continue;
		xhci_write32(xhci.op, OP_PORTSC(port), PORTSC_PP);
		waited = true;
	}
	if (waited)
		udelay(20000);  /* power good */
}

/* scan_ports - step 6: every port with a device on it now. */
static void scan_ports(void)
{
	for (unsigned int port = 1; port <= xhci.max_ports; port++) {
		uint32_t sc = xhci_read32(xhci.op, OP_PORTSC(port));
		xhci_write32(xhci.op, OP_PORTSC(port),
			     (sc & ~(PORTSC_PED | PORTSC_PR | PORTSC_CHANGES |
				     (1u << 16) | (1u << 31))) |
			     (sc & PORTSC_CHANGES));
	}
	process_events(uptime_ms());
	for (unsigned int port = 1; port <= xhci.max_ports; port++) {
		xhci.port_check_at[port] = 0;
		if (xhci_read32(xhci.op, OP_PORTSC(port)) & PORTSC_CCS)
			xhci_port_connected(port);
	}
}

/* find_controller - the first PCI function of class 0c0330 (serial bus,
 * USB, xHCI), or NULL. */
static const struct pci_dev *find_controller(void)
{
	for (size_t i = 0; i < pci_device_count(); i++)
		if (pci_device(i)->class == 0x0c0330)
			return pci_device(i);
	return NULL;
}

void xhci_init(void)
{
	const struct pci_dev *d = find_controller();
	if (!d) {
		snprintf(xhci.status, sizeof(xhci.status), "no xHCI controller");
		/* The screen stays as it was on a machine without one; the
		 * serial line, a log, says it once. */
		for (const char *s = "usb: no xHCI controller: no USB keyboard\n"; *s; s++) {
			if (*s == '\n')
				serial_putc('\r');
			serial_putc(*s);
		}
		return;
	}
	xhci.bus = d->bus;
	xhci.dev = d->dev;
	xhci.fn = d->fn;

	uint64_t size;
	uint64_t bar = pci_bar_mem(d, 0, &size);
	if (!bar || size < 0x1000) {
		snprintf(xhci.status, sizeof(xhci.status),
			 "xhci %02x:%02x.%x: BAR 0 is not assigned: ignored",
			 d->bus, d->dev, d->fn);
		printk("%s\n", xhci.status);
		return;
	}
	uint32_t cmd = pci_read32(d, PCI_COMMAND) & 0xffff;
	pci_write32(d, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
			       PCI_COMMAND_INTX_OFF);
	paging_map_uncached(bar, size);
	xhci.cap = phys_to_virt(bar);
	xhci.op = xhci.cap + *(volatile uint8_t *)xhci.cap;
	xhci.rt = xhci.cap + (xhci_read32(xhci.cap, CAP_RTSOFF) & ~0x1fu);
	xhci.db = (volatile uint32_t *)(xhci.cap +
					(xhci_read32(xhci.cap, CAP_DBOFF) & ~0x3u));

	bios_handoff();
	intel_port_routing(d);
	const char *err = start();
	if (err) {
		snprintf(xhci.status, sizeof(xhci.status),
			 "xhci %02x:%02x.%x: %s: ignored", d->bus, d->dev, d->fn,
			 err);
		printk("%s (no USB keyboard)\n", xhci.status);
		xhci_write32(xhci.op, OP_USBCMD, 0);
		return;
	}
	snprintf(xhci.status, sizeof(xhci.status),
		 "xhci %02x:%02x.%x: %u ports, %u slots", d->bus, d->dev, d->fn,
		 xhci.max_ports, xhci.max_slots);
	xhci.present = true;
	power_ports();
	scan_ports();
	xhci.running = true;
}

void xhci_tick(void)
{
	if (!xhci.running)
		return;
	uint64_t now = uptime_ms();

	process_events(now);
	for (unsigned int port = 1; port <= xhci.max_ports; port++) {
		uint64_t at = xhci.port_check_at[port];
		if (!at || now < at)
			continue;
		xhci.port_check_at[port] = 0;
		/* A disconnect, or a disconnect and a new connect since the
		 * last look: the old device is gone either way. */
		xhci_port_disconnected(port);
		if (xhci_read32(xhci.op, OP_PORTSC(port)) & PORTSC_CCS)
			xhci_port_connected(port);
	}
	xhci_devices_tick(now);
}
