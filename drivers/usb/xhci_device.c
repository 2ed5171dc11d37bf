// SPDX-License-Identifier: MIT
/*
 * drivers/usb/xhci_device.c - a USB device on the xHCI
 * controller, from its port's reset to a keyboard sending reports (xHCI
 * 1.2 section 4.3; USB 2.0 section 9.1.2):
 *
 *   1. reset the port (a root port: PR in PORTSC; a hub's port:
 *      xhci_hub.c), which enables it and tells the speed;
 *   2. Enable Slot: the controller gives a slot id;
 *   3. Address Device, with an input context saying where the device is
 *      (root port, route string through hubs, speed, the transaction
 *      translator it talks through) and endpoint 0's transfer ring: the
 *      controller sends SET_ADDRESS;
 *   4. GET_DESCRIPTOR(device), first 8 bytes for endpoint 0's packet size
 *      (Evaluate Context if it is not the one guessed), then all 18;
 *   5. GET_DESCRIPTOR(configuration): the interfaces and endpoints. A
 *      keyboard in the boot protocol is an interface of class 3 (HID),
 *      subclass 1 (boot), protocol 1 (keyboard), with an interrupt IN
 *      endpoint; a hub is class 9, with one too;
 *   6. Configure Endpoint (that endpoint's context and transfer ring),
 *      then SET_CONFIGURATION, and for a keyboard SET_PROTOCOL(boot),
 *      SET_IDLE(0: report on change only);
 *   7. one Normal TRB of 8 bytes on the interrupt ring: the controller
 *      polls the device at its interval and completes the TRB when it has
 *      something - a keyboard report, which xhci_transfer_event hands to
 *      hid_kbd.c, or a hub's bitmap of changed ports - and the next TRB is
 *      queued.
 *
 * Anything else - a mouse, a disk - is named in /proc/usb and its slot
 * given back. A device that fails a step is named with the step, and left.
 */
#include <stdio.h>
#include <string.h>

#include "arch/x86_64/lapic.h"
#include "drivers/usb/usb.h"
#include "drivers/usb/xhci.h"
#include "kernel/base/platform.h"
#include "kernel/printk/console.h"

/* The slots of all controllers: a pool, each entry taken by one device
 * of one controller (its hc->slot[id] points back). */
static struct xhci_slot slots[XHCI_MAX_SLOTS];

/* Input context index: 0 input control, 1 slot, 1 + dci an endpoint;
 * the output (device) context has no input control context. */
static uint32_t *in_ctx(struct xhci_slot *s, unsigned int index)
{
	return (uint32_t *)(s->in_ctx + index * s->hc->ctx_size);
}

static struct xhci_slot *slot_by_id(struct xhci *hc, unsigned int id)
{
	if (id == 0 || id > XHCI_MAX_SLOTS)
		return NULL;
	return hc->slot[id];
}

int xhci_control(struct xhci_slot *s, uint8_t type, uint8_t request,
		 uint16_t value, uint16_t index, uint16_t len)
{
	bool in = type & USB_DIR_IN;
	uint64_t setup = type | (uint64_t)request << 8 | (uint64_t)value << 16 |
			 (uint64_t)index << 32 | (uint64_t)len << 48;
	/* transfer type: IN, OUT, none */
	uint32_t trt = len ? (in ? 3 : 2) : 0;

	if (len > sizeof(s->buf))
		panic("xhci_control: %u bytes for a %zu-byte buffer", len,
		      sizeof(s->buf));
	xhci_ring_push(&s->ep0, setup, 8,
		       TRB_TYPE(TRB_SETUP) | TRB_IDT | trt << 16);
	if (len)
		xhci_ring_push(&s->ep0, xhci_dma(s->buf), len,
			       TRB_TYPE(TRB_DATA) | (in ? 1u << 16 : 0));
	/* The status stage goes the other way from the data (IN if none). */
	uint32_t dir = (len && in) ? 0 : 1u << 16;
	uint64_t st = xhci_ring_push(&s->ep0, 0, 0,
				     TRB_TYPE(TRB_STATUS) | TRB_IOC | dir);
	xhci_ring_doorbell(s->hc, s->id, 1);
	return xhci_wait_trb(s->hc, st, s->id, 1, 1000);
}

static int get_descriptor(struct xhci_slot *s, uint8_t dtype, uint16_t len)
{
	return xhci_control(s, USB_DIR_IN, USB_REQ_GET_DESCRIPTOR,
			    (uint16_t)(dtype << 8), 0, len);
}

/* root_port_reset - reset a root port and wait for it to be enabled;
 * false if it is not within half a second. */
static bool root_port_reset(struct xhci *hc, unsigned int port)
{
	uint32_t keep = ~(PORTSC_PED | PORTSC_PR | PORTSC_CHANGES | (1u << 16) |
			  (1u << 31));
	uint32_t sc = xhci_read32(hc->op, OP_PORTSC(port));

	xhci_write32(hc->op, OP_PORTSC(port), (sc & keep) | PORTSC_PR);
	for (int i = 0; i < 5000; i++) {
		sc = xhci_read32(hc->op, OP_PORTSC(port));
		if ((sc & PORTSC_PRC) && !(sc & PORTSC_PR))
			break;
		udelay(100);
	}
	xhci_write32(hc->op, OP_PORTSC(port), (sc & keep) | PORTSC_PRC);
	if (!(sc & PORTSC_PED))
		return false;
	udelay(10000);  /* reset recovery (USB 2.0 7.1.7.5: 10 ms) */
	return true;
}

static uint16_t ep0_packet_size(unsigned int speed)
{
	switch (speed) {
	case USB_SPEED_LOW:
	case USB_SPEED_FULL:
		return 8;
	case USB_SPEED_HIGH:
		return 64;
	default:
		return 512;
	}
}

/* slot_context - where the device is, in the input context's slot
 * context; entries: the highest device context index in use. */
static void slot_context(struct xhci_slot *s, unsigned int entries,
			 unsigned int hub_ports)
{
	uint32_t *slot = in_ctx(s, 1);

	slot[0] = (s->loc.route & 0xfffff) | (uint32_t)s->loc.speed << 20 |
		  (hub_ports ? 1u << 26 : 0) | (uint32_t)entries << 27;
	slot[1] = (uint32_t)s->loc.root_port << 16 | (uint32_t)hub_ports << 24;
	slot[2] = s->loc.tt_slot | (uint32_t)s->loc.tt_port << 8 |
		  (hub_ports ? (uint32_t)s->hub_think_time << 16 : 0);
}

/* address_device - steps 2 and 3; NULL or what failed. */
static const char *address_device(struct xhci_slot *s)
{
	memset(s->in_ctx, 0, sizeof(s->in_ctx));
	memset(s->out_ctx, 0, sizeof(s->out_ctx));
	uint64_t deq = xhci_ring_init(&s->ep0, s->ep0_trbs,
				      xhci_dma(s->ep0_trbs), XHCI_EP0_TRBS);
	xhci_set_device_context(s->hc, s->id, xhci_dma(s->out_ctx));

	in_ctx(s, 0)[1] = 0x3;                          /* add: slot, ep 0 */
	slot_context(s, 1, 0);
	uint32_t *ep0 = in_ctx(s, 2);
	ep0[1] = 3u << 1 | 4u << 3 |
		 (uint32_t)ep0_packet_size(s->loc.speed) << 16;
	ep0[2] = (uint32_t)deq;                         /* CErr 3, control */
	ep0[3] = (uint32_t)(deq >> 32);
	ep0[4] = 8;                                     /* average TRB length */
	if (xhci_command(s->hc, xhci_dma(s->in_ctx), 0,
			 TRB_TYPE(TRB_ADDRESS_DEV) | (uint32_t)s->id << 24) !=
	    CC_SUCCESS)
		return "Address Device";
	udelay(2000);   /* SET_ADDRESS recovery (USB 2.0 9.2.6.3: 2 ms) */
	return NULL;
}

/* fix_ep0_packet_size - a full-speed device's endpoint 0 takes 8, 16, 32
 * or 64 bytes; the guess was 8. */
static const char *fix_ep0_packet_size(struct xhci_slot *s, uint8_t mps)
{
	if (s->loc.speed != USB_SPEED_FULL || mps == 8 || mps == 0)
		return NULL;
	memset(s->in_ctx, 0, sizeof(s->in_ctx));
	in_ctx(s, 0)[1] = 0x2;                          /* add: ep 0 */
	uint32_t *ep0 = in_ctx(s, 2);
	ep0[1] = 3u << 1 | 4u << 3 | (uint32_t)mps << 16;
	if (xhci_command(s->hc, xhci_dma(s->in_ctx), 0,
			 TRB_TYPE(TRB_EVAL_CONTEXT) | (uint32_t)s->id << 24) !=
	    CC_SUCCESS)
		return "Evaluate Context";
	return NULL;
}

/* What tally looks for in a configuration: a boot keyboard interface or a
 * hub interface, and its interrupt IN endpoint. */
struct usb_function {
	uint8_t config;            /* bConfigurationValue */
	uint8_t iface;             /* bInterfaceNumber */
	uint8_t ep;                /* endpoint address */
	uint16_t mps;
	uint8_t interval;          /* bInterval */
	bool keyboard, hub;        /* which, if found */
};

/* parse_config - look through a configuration descriptor (len bytes). */
static struct usb_function parse_config(const uint8_t *d, unsigned int len)
{
	struct usb_function f = {0};
	int in = 0;     /* 1: in a keyboard interface, 2: in a hub's */

	if (len >= 6)
		f.config = d[5];
	for (unsigned int off = 0; off + 2 <= len && d[off] >= 2;
	     off += d[off]) {
		const uint8_t *p = d + off;
		if (off + p[0] > len)
			break;
		if (p[1] == USB_DT_INTERFACE && p[0] >= 9) {
			in = 0;
			if (f.keyboard || f.hub)
				continue;
			if (p[5] == USB_CLASS_HID &&
			    p[6] == HID_SUBCLASS_BOOT &&
			    p[7] == HID_PROTOCOL_KEYBOARD)
				in = 1;
			else if (p[5] == USB_CLASS_HUB)
				in = 2;
			f.iface = p[2];
		} else if (p[1] == USB_DT_ENDPOINT && p[0] >= 7 && in &&
			   (p[2] & USB_ENDPOINT_IN) &&
			   (p[3] & 3) == USB_ENDPOINT_INTERRUPT) {
			f.ep = p[2];
			f.mps = (uint16_t)(p[4] | p[5] << 8);
			f.interval = p[6];
			f.keyboard = in == 1;
			f.hub = in == 2;
			in = 0;
		}
	}
	return f;
}

/* xhci_interval - the endpoint context's Interval (period 2^n x 125 us)
 * from bInterval: milliseconds at low and full speed, 2^(b-1) x 125 us
 * above. */
static uint32_t xhci_interval(unsigned int speed, uint8_t b)
{
	if (speed == USB_SPEED_LOW || speed == USB_SPEED_FULL) {
		uint32_t n = 3;                 /* 1 ms */
		while (n < 10 && (1u << (n + 1)) <= (uint32_t)b * 8)
			n++;
		return n;
	}
	return b ? (b > 16 ? 15 : b - 1u) : 0;
}

void xhci_queue_interrupt_in(struct xhci_slot *s)
{
	xhci_ring_push(&s->intr, xhci_dma(s->report), sizeof(s->report),
		       TRB_TYPE(TRB_NORMAL) | TRB_IOC | TRB_ISP);
	xhci_ring_doorbell(s->hc, s->id, s->intr_dci);
}

const char *xhci_configure_interrupt_in(struct xhci_slot *s, uint8_t ep_addr,
					uint16_t max_packet, uint8_t interval,
					unsigned int hub_ports)
{
	unsigned int dci = (ep_addr & 0xf) * 2 + 1;     /* IN endpoints: odd */
	uint16_t mps = max_packet & 0x7ff;
	uint32_t burst = 0;

	if (s->loc.speed == USB_SPEED_HIGH)
		burst = (max_packet >> 11) & 3;

	uint64_t deq = xhci_ring_init(&s->intr, s->intr_trbs,
				      xhci_dma(s->intr_trbs), XHCI_INTR_TRBS);
	memset(s->in_ctx, 0, sizeof(s->in_ctx));
	in_ctx(s, 0)[1] = 1u | 1u << dci;               /* add: slot, the ep */
	slot_context(s, dci, hub_ports);
	uint32_t *ep = in_ctx(s, 1 + dci);
	ep[0] = xhci_interval(s->loc.speed, interval) << 16;
	/* int IN */
	ep[1] = 3u << 1 | 7u << 3 | burst << 8 | (uint32_t)mps << 16;
	ep[2] = (uint32_t)deq;
	ep[3] = (uint32_t)(deq >> 32);
	ep[4] = 8 | (uint32_t)(mps * (burst + 1)) << 16;  /* max ESIT payload */
	if (xhci_command(s->hc, xhci_dma(s->in_ctx), 0,
			 TRB_TYPE(TRB_CONFIG_EP) | (uint32_t)s->id << 24) !=
	    CC_SUCCESS)
		return "Configure Endpoint";
	s->intr_dci = (uint8_t)dci;
	return NULL;
}

/* start_keyboard - steps 6 and 7 for a boot keyboard; NULL or what failed. */
static const char *start_keyboard(struct xhci_slot *s,
				  const struct usb_function *f)
{
	const char *err = xhci_configure_interrupt_in(s, f->ep, f->mps,
						      f->interval, 0);
	if (err)
		return err;
	if (xhci_control(s, 0, USB_REQ_SET_CONFIGURATION, f->config, 0, 0) !=
	    CC_SUCCESS)
		return "SET_CONFIGURATION";
	if (xhci_control(s, USB_TYPE_CLASS | USB_RECIP_INTERFACE,
			 HID_REQ_SET_PROTOCOL, HID_PROTOCOL_BOOT, f->iface,
			 0) != CC_SUCCESS)
		return "SET_PROTOCOL";
	/* SET_IDLE is optional for a keyboard to honour; a stall is fine,
	 * and endpoint 0 is not used after it. */
	xhci_control(s, USB_TYPE_CLASS | USB_RECIP_INTERFACE, HID_REQ_SET_IDLE,
		     0, f->iface, 0);
	hid_kbd_init(&s->kbd, console_input);
	s->keyboard = true;
	xhci_queue_interrupt_in(s);
	return NULL;
}

static void free_slot(struct xhci_slot *s)
{
	xhci_command(s->hc, 0, 0,
		     TRB_TYPE(TRB_DISABLE_SLOT) | (uint32_t)s->id << 24);
	xhci_set_device_context(s->hc, s->id, 0);
	s->hc->slot[s->id] = NULL;
	s->used = false;
	s->keyboard = false;
	s->hub = false;
	s->hub_check = false;
	s->intr_dci = 0;
}

void xhci_free_subtree(struct xhci *hc, unsigned int root_port, uint32_t route,
		       unsigned int depth, const char *where)
{
	uint32_t mask = depth ? (1u << (4 * depth)) - 1 : 0;

	for (unsigned int i = 0; i < XHCI_MAX_SLOTS; i++) {
		struct xhci_slot *s = &slots[i];
		if (s->used && s->hc == hc && s->loc.root_port == root_port &&
		    s->loc.depth >= depth && (s->loc.route & mask) == route)
			free_slot(s);
	}
	xhci_note_clear(hc, where);
}

void xhci_enumerate(struct xhci *hc, const struct usb_location *loc)
{
	const char *err = NULL;
	char what[16] = "?";

	if (xhci_command(hc, 0, 0, TRB_TYPE(TRB_ENABLE_SLOT)) != CC_SUCCESS) {
		xhci_note(hc, loc->where, "no free device slot");
		return;
	}
	unsigned int id = hc->done_control >> 24;
	struct xhci_slot *s = NULL;
	for (unsigned int i = 0; i < XHCI_MAX_SLOTS && !s; i++)
		if (!slots[i].used)
			s = &slots[i];
	if (!s || id == 0 || id > hc->max_slots || hc->slot[id]) {
		if (!s)
			xhci_note(hc, loc->where, "ignored: tally uses %d USB "
				  "devices at most", XHCI_MAX_SLOTS);
		else
			xhci_note(hc, loc->where,
				  "the controller gave slot %u, "
				  "which is not free or not enabled",
				  id);
		xhci_command(hc, 0, 0, TRB_TYPE(TRB_DISABLE_SLOT) | id << 24);
		return;
	}
	s->used = true;
	s->hc = hc;
	s->id = (uint8_t)id;
	hc->slot[id] = s;
	s->loc = *loc;
	s->keyboard = s->hub = s->hub_check = false;
	s->hub_think_time = 0;
	s->intr_dci = 0;

	if ((err = address_device(s)))
		goto fail;
	err = "GET_DESCRIPTOR(device)";
	if (get_descriptor(s, USB_DT_DEVICE, 8) != CC_SUCCESS)
		goto fail;
	if ((err = fix_ep0_packet_size(s, s->buf[7])))
		goto fail;
	err = "GET_DESCRIPTOR(device)";
	if (get_descriptor(s, USB_DT_DEVICE, 18) != CC_SUCCESS)
		goto fail;
	snprintf(what, sizeof(what), "%04x:%04x", s->buf[8] | s->buf[9] << 8,
		 s->buf[10] | s->buf[11] << 8);
	uint8_t dev_class = s->buf[4];

	err = "GET_DESCRIPTOR(configuration)";
	if (get_descriptor(s, USB_DT_CONFIG, 9) != CC_SUCCESS)
		goto fail;
	unsigned int total = s->buf[2] | s->buf[3] << 8;
	if (total > sizeof(s->buf))
		total = sizeof(s->buf);
	if (get_descriptor(s, USB_DT_CONFIG, (uint16_t)total) != CC_SUCCESS)
		goto fail;
	struct usb_function f = parse_config(s->buf, total);

	if (f.hub || dev_class == USB_CLASS_HUB) {
		if (s->loc.speed == USB_SPEED_SUPER) {
			/* A USB 3 hub is also a USB 2 hub on a USB 2 port;
			 * keyboards are seen there. */
			xhci_note(hc, loc->where,
				  "hub %s (USB 3 side): not used", what);
			free_slot(s);
			return;
		}
		if (!f.hub) {
			err = "finding the hub's status endpoint";
			goto fail;
		}
		/* Noted before its ports are enumerated: it comes first. */
		xhci_note(hc, loc->where, "hub %s", what);
		if ((err = xhci_hub_start(s, f.ep, f.mps, f.interval,
					  f.config)))
			goto fail;
		return;
	}
	if (!f.keyboard) {
		xhci_note(hc, loc->where,
			  "device %s is not a boot keyboard: ignored", what);
		free_slot(s);
		return;
	}
	if ((err = start_keyboard(s, &f)))
		goto fail;
	xhci_note(hc, loc->where, "keyboard %s", what);
	return;
fail:
	xhci_note(hc, loc->where, "device %s failed at %s: ignored", what, err);
	free_slot(s);
}

void xhci_port_connected(struct xhci *hc, unsigned int port)
{
	struct usb_location loc = {.root_port = (uint8_t)port};

	snprintf(loc.where, sizeof(loc.where), "%u", port);
	if (!root_port_reset(hc, port)) {
		xhci_note(hc, loc.where,
			  "the device did not come out of reset");
		return;
	}
	loc.speed = PORTSC_SPEED(xhci_read32(hc->op, OP_PORTSC(port)));
	xhci_enumerate(hc, &loc);
}

void xhci_port_disconnected(struct xhci *hc, unsigned int port)
{
	char where[16];

	snprintf(where, sizeof(where), "%u", port);
	xhci_free_subtree(hc, port, 0, 0, where);
}

void xhci_transfer_event(struct xhci *hc, const struct xhci_trb *ev,
			 uint64_t now_ms)
{
	struct xhci_slot *s = slot_by_id(hc, ev->control >> 24);
	unsigned int dci = (ev->control >> 16) & 0x1f;
	unsigned int cc = ev->status >> 24;

	if (!s || !s->intr_dci || dci != s->intr_dci ||
	    !(s->keyboard || s->hub))
		return;
	if (cc != CC_SUCCESS && cc != CC_SHORT_PACKET) {
		/* The endpoint is halted; a replug starts it again. */
		xhci_note(s->hc, s->loc.where,
			  "%s stopped (completion code %u)",
			  s->hub ? "hub" : "keyboard", cc);
		s->keyboard = s->hub = false;
		return;
	}
	if (s->hub) {
		s->hub_check = true;    /* looked at by khubd */
		xhci_queue_interrupt_in(s);
		return;
	}
	unsigned int got = sizeof(s->report) - (ev->status & 0xffffff);
	uint8_t report[8] = {0};
	memcpy(report, s->report, got <= sizeof(report) ? got : sizeof(report));
	xhci_queue_interrupt_in(s);
	hid_kbd_report(&s->kbd, report, now_ms);
}

void xhci_devices_tick(uint64_t now_ms)
{
	for (unsigned int i = 0; i < XHCI_MAX_SLOTS; i++) {
		struct xhci_slot *s = &slots[i];
		if (s->used && s->keyboard)
			hid_kbd_tick(&s->kbd, now_ms);
	}
}

bool xhci_hubs_changed(void)
{
	for (unsigned int i = 0; i < XHCI_MAX_SLOTS; i++)
		if (slots[i].used && slots[i].hub && slots[i].hub_check)
			return true;
	return false;
}

void xhci_hubs_check(void)
{
	for (unsigned int i = 0; i < XHCI_MAX_SLOTS; i++) {
		struct xhci_slot *s = &slots[i];
		if (s->used && s->hub && s->hub_check) {
			s->hub_check = false;
			xhci_hub_check(s);
		}
	}
}
