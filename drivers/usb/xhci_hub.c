// SPDX-License-Identifier: MIT
/*
 * drivers/usb/xhci_hub.c - USB 2 hubs (USB 2.0 chapter 11):
 * their ports, and the devices on them.
 *
 * The xHCI controller does most of a hub's work: once the hub's slot
 * context says it is a hub (and how many ports it has), the controller
 * routes transfers to a device behind it by the device's route string
 * (one 4-bit hub port per tier) and root port. What is left to the driver
 * is the hub's own ports, through class requests on its endpoint 0:
 *
 *   GET_DESCRIPTOR(hub)   number of ports, power-on-to-good time
 *   SET_FEATURE(PORT_POWER), then wait that time
 *   GET_STATUS(port)      connected? enabled? speed? and what changed
 *   SET_FEATURE(PORT_RESET), wait for C_PORT_RESET: enabled, speed known
 *   CLEAR_FEATURE(C_PORT_...)  acknowledge each change
 *
 * and the hub's interrupt IN endpoint, whose report is a bitmap of the
 * ports that changed: when it completes, the tick looks at the ports
 * (xhci_hub_check), so that keyboards plugged into the hub after boot
 * work too. A low- or full-speed device behind a high-speed hub talks
 * through the hub's transaction translator: its slot context names the
 * hub's slot and port.
 *
 * Not done: USB 3 hubs' SuperSpeed side (their USB 2 side is used, which
 * is where keyboards are), more than 15 ports on a hub (the route string
 * has 4 bits a tier), hubs below the fifth tier.
 */
#include <stdio.h>

#include "arch/x86_64/lapic.h"
#include "drivers/usb/usb.h"
#include "drivers/usb/xhci.h"

#define HUB_REQ_TYPE_DEVICE_IN 0xa0   /* IN, class, device */
#define HUB_REQ_TYPE_PORT_IN   0xa3   /* IN, class, other (a port) */
#define HUB_REQ_TYPE_PORT_OUT  0x23

#define REQ_GET_STATUS    0
#define REQ_CLEAR_FEATURE 1
#define REQ_SET_FEATURE   3
#define USB_DT_HUB        0x29

#define PORT_RESET        4
#define PORT_POWER        8
#define C_PORT_CONNECTION 16          /* C_PORT_x = 16 + change bit x */

#define STAT_CONNECTION   (1u << 0)
#define STAT_ENABLE       (1u << 1)
#define STAT_RESET        (1u << 4)
#define STAT_LOW_SPEED    (1u << 9)
#define STAT_HIGH_SPEED   (1u << 10)
#define CHANGE_CONNECTION (1u << 0)
#define CHANGE_RESET      (1u << 4)

#define HUB_MAX_PORTS     15
#define HUB_MAX_DEPTH     4           /* its devices are then on tier 5 */

static bool port_status(struct xhci_slot *hub, unsigned int port,
			uint16_t *status, uint16_t *change)
{
	if (xhci_control(hub, HUB_REQ_TYPE_PORT_IN, REQ_GET_STATUS, 0,
			 (uint16_t)port, 4) != CC_SUCCESS)
		return false;
	*status = (uint16_t)(hub->buf[0] | hub->buf[1] << 8);
	*change = (uint16_t)(hub->buf[2] | hub->buf[3] << 8);
	return true;
}

static void port_feature(struct xhci_slot *hub, uint8_t request,
			 uint16_t feature, unsigned int port)
{
	xhci_control(hub, HUB_REQ_TYPE_PORT_OUT, request, feature,
		     (uint16_t)port, 0);
}

/* port_reset - reset a hub port; its status after, or 0 if it failed. */
static uint16_t port_reset(struct xhci_slot *hub, unsigned int port)
{
	uint16_t status = 0, change = 0;

	port_feature(hub, REQ_SET_FEATURE, PORT_RESET, port);
	for (int i = 0; i < 500; i++) {
		if (!port_status(hub, port, &status, &change))
			return 0;
		if ((change & CHANGE_RESET) || !(status & STAT_RESET))
			break;
		udelay(1000);
	}
	if (change & CHANGE_RESET)
		port_feature(hub, REQ_CLEAR_FEATURE, C_PORT_CONNECTION + 4,
			     port);
	if (!(status & STAT_ENABLE))
		return 0;
	udelay(10000);  /* reset recovery */
	return status;
}

/* hub_port - look at one port of the hub: acknowledge its changes; on a
 * connect change (or at the hub's start, any device there), forget what
 * was there and enumerate what is there now. */
static void hub_port(struct xhci_slot *hub, unsigned int port, bool initial)
{
	uint16_t status, change;
	struct usb_location loc = {
		.root_port = hub->loc.root_port,
		.route = hub->loc.route |
			 (uint32_t)port << (4 * hub->loc.depth),
		.depth = (uint8_t)(hub->loc.depth + 1),
	};

	snprintf(loc.where, sizeof(loc.where), "%s.%u", hub->loc.where, port);
	if (!port_status(hub, port, &status, &change))
		return;
	for (unsigned int bit = 0; bit < 5; bit++)
		if (change & (1u << bit))
			port_feature(hub, REQ_CLEAR_FEATURE,
				     (uint16_t)(C_PORT_CONNECTION + bit), port);
	if (!initial && !(change & CHANGE_CONNECTION))
		return;
	xhci_free_subtree(hub->hc, loc.root_port, loc.route, loc.depth,
			  loc.where);
	if (!(status & STAT_CONNECTION))
		return;

	status = port_reset(hub, port);
	if (!status) {
		xhci_note(hub->hc, loc.where,
			  "the device did not come out of reset");
		return;
	}
	loc.speed = (status & STAT_LOW_SPEED)  ? USB_SPEED_LOW :
		    (status & STAT_HIGH_SPEED) ? USB_SPEED_HIGH :
						 USB_SPEED_FULL;
	if (hub->loc.speed == USB_SPEED_HIGH && loc.speed != USB_SPEED_HIGH) {
		loc.tt_slot = hub->id;          /* the hub translates */
		loc.tt_port = (uint8_t)port;
	} else {
		loc.tt_slot = hub->loc.tt_slot; /* the one above, if any */
		loc.tt_port = hub->loc.tt_port;
	}
	xhci_enumerate(hub->hc, &loc);
}

const char *xhci_hub_start(struct xhci_slot *s, uint8_t ep, uint16_t mps,
			   uint8_t interval, uint8_t config)
{
	if (s->loc.depth > HUB_MAX_DEPTH)
		return "a hub that deep (5 tiers at most)";
	if (xhci_control(s, HUB_REQ_TYPE_DEVICE_IN, USB_REQ_GET_DESCRIPTOR,
			 USB_DT_HUB << 8, 0, 9) != CC_SUCCESS)
		return "GET_DESCRIPTOR(hub)";
	unsigned int ports = s->buf[2];
	unsigned int power_good_ms = s->buf[5] * 2u;
	if (s->loc.speed == USB_SPEED_HIGH)
		s->hub_think_time = (s->buf[3] >> 5) & 3;
	if (ports > HUB_MAX_PORTS)
		ports = HUB_MAX_PORTS;
	if (ports == 0)
		return "a hub with no ports";

	const char *err = xhci_configure_interrupt_in(s, ep, mps, interval,
						      ports);
	if (err)
		return err;
	if (xhci_control(s, 0, USB_REQ_SET_CONFIGURATION, config, 0, 0) !=
	    CC_SUCCESS)
		return "SET_CONFIGURATION";
	s->hub = true;
	s->hub_ports = (uint8_t)ports;

	for (unsigned int port = 1; port <= ports; port++)
		port_feature(s, REQ_SET_FEATURE, PORT_POWER, port);
	udelay((power_good_ms < 20 ? 20 : power_good_ms) * 1000ull);
	for (unsigned int port = 1; port <= ports; port++)
		hub_port(s, port, true);
	xhci_queue_interrupt_in(s);
	return NULL;
}

void xhci_hub_check(struct xhci_slot *hub)
{
	for (unsigned int port = 1;
	     port <= hub->hub_ports && hub->used && hub->hub; port++)
		hub_port(hub, port, false);
}
