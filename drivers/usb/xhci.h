/* SPDX-License-Identifier: MIT */
/*
 * drivers/usb/xhci.h - the xHCI host controller driver: its
 * registers, its state, and what its files share: xhci.c (the
 * controller), xhci_device.c (a device, from port reset to keyboard),
 * xhci_hub.c (hubs' ports), xhci_proc.c (/proc/usb), with xhci_ring.c
 * (rings) and hid_kbd.c (keyboard reports) below them.
 */
#ifndef ARCH_X86_64_XHCI_H
#define ARCH_X86_64_XHCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/usb/hid_kbd.h"
#include "drivers/usb/xhci_ring.h"
#include "kernel/base/spinlock.h"

/* --- registers (xHCI 1.2, chapter 5) ----------------------------------- */

/* Capability registers, at the start of BAR 0. */
#define CAP_LENGTH      0x00    /* byte: where the operational registers are */
#define CAP_HCSPARAMS1  0x04    /* slots 7:0, interrupters 18:8, ports 31:24 */
#define CAP_HCSPARAMS2  0x08    /* scratchpad count: 25:21 high, 31:27 low */
#define CAP_HCCPARAMS1  0x10    /* bit 2: 64-byte contexts; 31:16 xECP */
#define CAP_DBOFF       0x14
#define CAP_RTSOFF      0x18

/* Operational registers, at CAP_LENGTH. */
#define OP_USBCMD       0x00
#define OP_USBSTS       0x04
#define OP_PAGESIZE     0x08
#define OP_CRCR         0x18
#define OP_DCBAAP       0x30
#define OP_CONFIG       0x38
#define OP_PORTSC(n)    (0x400 + 0x10 * ((n) - 1))   /* ports from 1 */

#define USBCMD_RUN      (1u << 0)
#define USBCMD_HCRST    (1u << 1)
#define USBSTS_HCH      (1u << 0)   /* halted */
#define USBSTS_HSE      (1u << 2)   /* host system error */
#define USBSTS_CNR      (1u << 11)  /* controller not ready */

#define PORTSC_CCS      (1u << 0)   /* a device is connected */
#define PORTSC_PED      (1u << 1)   /* enabled (write 1: disables!) */
#define PORTSC_PR       (1u << 4)   /* reset */
#define PORTSC_PP       (1u << 9)   /* power */
#define PORTSC_SPEED(v) (((v) >> 10) & 0xf)
#define PORTSC_CSC      (1u << 17)  /* the changes: write 1 to clear */
#define PORTSC_PEC      (1u << 18)
#define PORTSC_WRC      (1u << 19)
#define PORTSC_OCC      (1u << 20)
#define PORTSC_PRC      (1u << 21)
#define PORTSC_PLC      (1u << 22)
#define PORTSC_CEC      (1u << 23)
#define PORTSC_CHANGES  (PORTSC_CSC | PORTSC_PEC | PORTSC_WRC | PORTSC_OCC | \
			 PORTSC_PRC | PORTSC_PLC | PORTSC_CEC)

/* Runtime registers, at CAP_RTSOFF: interrupter 0. */
#define RT_IMAN         0x20
#define RT_IMOD         0x24
#define RT_ERSTSZ       0x28
#define RT_ERSTBA       0x30
#define RT_ERDP         0x38
#define ERDP_EHB        (1u << 3)   /* event handler busy: write 1 to clear */

/* Extended capabilities. */
#define XCAP_LEGACY     1           /* USB legacy support (BIOS hand-off) */
#define LEGACY_BIOS_OWNED (1u << 16)
#define LEGACY_OS_OWNED   (1u << 24)
/* USBLEGCTLSTS: the SMI enables (bits 0, 4, 13-15) and, write 1 to clear,
 * the SMI events (bits 29-31). */
#define LEGACY_SMI_ENABLES 0x0000e011u
#define LEGACY_SMI_EVENTS  0xe0000000u

/* TRB types. */
#define TRB_NORMAL       1
#define TRB_SETUP        2
#define TRB_DATA         3
#define TRB_STATUS       4
#define TRB_ENABLE_SLOT  9
#define TRB_DISABLE_SLOT 10
#define TRB_ADDRESS_DEV  11
#define TRB_CONFIG_EP    12
#define TRB_EVAL_CONTEXT 13
#define TRB_NOOP_CMD     23
#define TRB_EV_TRANSFER  32
#define TRB_EV_COMMAND   33
#define TRB_EV_PORT      34

/* Completion codes (event status bits 31:24). */
#define CC_SUCCESS       1
#define CC_SHORT_PACKET  13

/* --- the driver's state ------------------------------------------------- */

#define XHCI_MAX_HCS     4     /* controllers used (AMD machines have 2 or 3) */
#define XHCI_MAX_SLOTS   8  /* devices at once, on each controller and in all */
#define XHCI_MAX_PORTS   32
#define XHCI_EP0_TRBS    64
#define XHCI_INTR_TRBS   64

/* Where a device is: its root port, and the route through hubs below it
 * (xHCI route string: 4 bits per hub tier, the hub port, tier 1 lowest).
 * A low- or full-speed device behind a high-speed hub talks through that
 * hub's transaction translator (tt_slot, tt_port). where is for people:
 * "5" for root port 5, "5.2" for port 2 of the hub on it. */
struct usb_location {
	uint8_t root_port;
	uint32_t route;
	uint8_t depth;             /* hubs between the root port and it */
	uint8_t speed;             /* PORTSC speed id */
	uint8_t tt_slot, tt_port;
	char where[16];
};

/* One USB device: its contexts, rings and buffers. The controller reads
 * all of it by DMA, so it lives in .bss, below 4 GiB, aligned as section
 * 6 asks (64 bytes for contexts, 16 for rings, none crossing a 4 KiB
 * page: each piece is within one aligned page). */
struct xhci_slot {
	/* First page: the device context (the controller's) and the rings. */
	uint8_t out_ctx[2048];
	struct xhci_trb ep0_trbs[XHCI_EP0_TRBS];
	struct xhci_trb intr_trbs[XHCI_INTR_TRBS];
	/* Second page: the input context (tally's) and the data buffers. */
	uint8_t in_ctx[2112] __attribute__((aligned(4096)));
	uint8_t buf[512] __attribute__((aligned(64)));      /* descriptors */
	uint8_t report[8] __attribute__((aligned(64)));  /* interrupt IN data */

	/* Not read by the controller. */
	bool used;
	struct xhci *hc;           /* the controller it is on */
	uint8_t id;                /* slot id that controller gave, 1.. */
	struct usb_location loc;
	struct xhci_ring ep0;
	struct xhci_ring intr;     /* the interrupt IN endpoint's ring */
	uint8_t intr_dci;          /* its device context index (0: none yet) */
	bool keyboard;             /* reports flow into kbd */
	struct hid_kbd kbd;
	bool hub;                  /* a hub: its ports are tally's to watch */
	uint8_t hub_ports;
	uint8_t hub_think_time;    /* TT think time, wHubCharacteristics 6:5 */
	bool hub_check;            /* its status-change endpoint spoke */
} __attribute__((aligned(4096)));

/* A line of /proc/usb: what became of the device at a place. */
struct xhci_note {
	char where[16];            /* "" for a free entry */
	char text[80];
};

#define XHCI_MAX_NOTES 16

/* What a controller reads by DMA besides its devices' slots: the device
 * context base address array, the command ring, the event ring and its
 * one-entry segment table, the scratchpad buffer array. Each piece is
 * within one 4 KiB page, at the alignment xHCI 1.2 table 6-1 asks. */
struct xhci_hc_dma {
	uint64_t dcbaa[256];                       /* 2 KiB at 0 */
	struct xhci_trb cmd[64];                   /* 1 KiB at 2 KiB */
	struct {
		uint64_t base;
		uint32_t size;
		uint32_t reserved;
	} erst[1] __attribute__((aligned(64)));    /* at 3 KiB */
	uint64_t scratchpad_array[256] __attribute__((aligned(4096)));
	struct xhci_trb events[256] __attribute__((aligned(4096)));
} __attribute__((aligned(4096)));

struct xhci {
	bool present, running;
	unsigned int index;        /* in xhci_hcs */
	struct xhci_hc_dma *dma;
	uint8_t bus, dev, fn;      /* PCI address, for messages */
	volatile uint8_t *cap, *op, *rt;
	volatile uint32_t *db;     /* doorbells */
	unsigned int max_slots, max_ports, ctx_size;
	struct xhci_ring cmd;
	struct xhci_event_ring events;
	/* By root port (1..max_ports): when to look at it again after a
	 * connect change (ms; 0: no change pending). */
	uint64_t port_check_at[XHCI_MAX_PORTS + 1];
	char status[80];           /* the controller, for /proc/usb */
	struct xhci_note notes[XHCI_MAX_NOTES];   /* under xhci_info_lock */
	struct xhci_slot *slot[XHCI_MAX_SLOTS + 1];  /* by slot id */
	/* The last completion seen for what a waiter waits for. */
	uint64_t done_trb;         /* bus address of the completed TRB */
	uint32_t done_status, done_control;
	bool done_error;  /* a failed transfer on the endpoint waited on */
	uint8_t wait_slot, wait_dci;  /* that endpoint (0: a command) */
};

/* The controllers found, in PCI order. */
extern struct xhci xhci_hcs[XHCI_MAX_HCS];
extern unsigned int xhci_nr_hcs;
extern unsigned int xhci_nr_found;      /* used or not */

/* xhci_info_lock - the controllers' status and notes: written by the
 * tick, read by cat /proc/usb. */
extern spinlock_t xhci_info_lock;

/* --- shared by the driver's files --------------------------------------- */

/* xhci_read32 / xhci_write32 - a 32-bit register; xhci_write64 as two
 * halves, low first (xHCI allows 32-bit access to 64-bit registers). */
static inline uint32_t xhci_read32(volatile uint8_t *base, uint32_t off)
{
	return *(volatile uint32_t *)(base + off);
}

static inline void xhci_write32(volatile uint8_t *base, uint32_t off,
				uint32_t v)
{
	*(volatile uint32_t *)(base + off) = v;
}

static inline void xhci_write64(volatile uint8_t *base, uint32_t off,
				uint64_t v)
{
	xhci_write32(base, off, (uint32_t)v);
	xhci_write32(base, off + 4, (uint32_t)(v >> 32));
}

/* xhci_dma - the bus address of a .bss object (tally's DMA memory). */
uint64_t xhci_dma(const void *p);

/*
 * xhci_wait_trb - process events until the one for the TRB at bus
 * address trb arrives, or a failure on endpoint dci of slot (slot 0: a
 * command, no such failure), or timeout_ms passes. Returns the completion
 * code (the event is in hc->done_*), or -1 on timeout.
 */
int xhci_wait_trb(struct xhci *hc, uint64_t trb, unsigned int slot,
		  unsigned int dci, unsigned int timeout_ms);

/* xhci_command - put a command on the command ring, ring doorbell 0, and
 * wait (up to 1 s) for its completion; returns the completion code, -1 on
 * timeout. The slot id of the completion is in hc->done_control 31:24. */
int xhci_command(struct xhci *hc, uint64_t param, uint32_t status,
		 uint32_t control);

/* xhci_set_device_context - entry slot of the device context base
 * address array: the bus address of that slot's output context (0: none). */
void xhci_set_device_context(struct xhci *hc, unsigned int slot, uint64_t phys);

/* xhci_ring_doorbell - doorbell of slot (0: the command ring) with target. */
void xhci_ring_doorbell(struct xhci *hc, unsigned int slot,
			unsigned int target);

/* xhci_port_connected - a device found on root port at boot or plugged
 * in later: reset the port, then xhci_enumerate. */
void xhci_port_connected(struct xhci *hc, unsigned int port);

/* xhci_port_disconnected - the device on root port went away: free its
 * slot and those of any devices behind it. */
void xhci_port_disconnected(struct xhci *hc, unsigned int port);

/*
 * xhci_enumerate - the device at loc (its port just reset and enabled):
 * address, describe, configure. A boot keyboard starts sending reports,
 * a hub is set up (xhci_hub_start) and its ports enumerated; anything
 * else is named and its slot given back. What became of it is a note.
 */
void xhci_enumerate(struct xhci *hc, const struct usb_location *loc);

/* xhci_free_subtree - give back the slot of every device on root port
 * whose route, on its lowest depth tiers, is route (depth 0: all on the
 * port); and drop their notes. */
void xhci_free_subtree(struct xhci *hc, unsigned int root_port, uint32_t route,
		       unsigned int depth, const char *where);

/* xhci_control - a control transfer on s's endpoint 0: setup, data (len
 * bytes into or out of s->buf), status. Returns the completion code, -1
 * on timeout. */
int xhci_control(struct xhci_slot *s, uint8_t type, uint8_t request,
		 uint16_t value, uint16_t index, uint16_t len);

/* xhci_configure_interrupt_in - Configure Endpoint for s's interrupt IN
 * endpoint ep (address) with packet size mps and bInterval; hub_ports > 0
 * marks s as a hub with that many ports. NULL, or what failed. */
const char *xhci_configure_interrupt_in(struct xhci_slot *s, uint8_t ep,
					uint16_t mps, uint8_t interval,
					unsigned int hub_ports);

/* xhci_queue_interrupt_in - ask for the next 8 bytes from s's interrupt
 * IN endpoint (a keyboard report, a hub's change bitmap). */
void xhci_queue_interrupt_in(struct xhci_slot *s);

/* xhci_hub_start - s is a USB 2 hub (already addressed and described)
 * whose status-change endpoint is ep: configure it, power its ports,
 * enumerate what is on them, and start watching it. NULL or what failed. */
const char *xhci_hub_start(struct xhci_slot *s, uint8_t ep, uint16_t mps,
			   uint8_t interval, uint8_t config);

/* xhci_hub_check - a hub said a port changed: look at each of its ports,
 * free what went away, enumerate what came. */
void xhci_hub_check(struct xhci_slot *hub);

/* xhci_note - set the /proc/usb line for the device at where (replacing
 * one there); printed on the console too while the kernel boots. */
void xhci_note(struct xhci *hc, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* xhci_note_clear - drop the notes at where and below it ("5" drops
 * "5", "5.1", ...). */
void xhci_note_clear(struct xhci *hc, const char *where);

/* xhci_transfer_event - a transfer event outside any wait: a keyboard's
 * report (fed to its hid_kbd) or a hub's change bitmap; the next asked for. */
void xhci_transfer_event(struct xhci *hc, const struct xhci_trb *ev,
			 uint64_t now_ms);

/* xhci_devices_tick - repeat held keys of every keyboard at now_ms. */
void xhci_devices_tick(uint64_t now_ms);

/* xhci_hubs_changed - has a hub reported a change not yet looked at? */
bool xhci_hubs_changed(void);

/* xhci_hubs_check - look at the ports of each hub that reported a change
 * (khubd, which may wait for transfers). */
void xhci_hubs_check(void);

/* --- the interface to the rest of the kernel ---------------------------- */

/*
 * xhci_init - find the xHCI controllers on PCI (pci_init first; the first
 * XHCI_MAX_HCS), take each from the firmware, reset and start it, and enumerate
 * what is on its root ports. One line on the console for each device or for a
 * controller that does not answer; a machine without one says so on the serial
 * line only. Never fails the boot. Call with interrupts off, after the banner.
 */
void xhci_init(void);

/* xhci_show - the /proc/usb text: each controller, then a line per device
 * ("port 5: keyboard 0627:0001", "port 5.1: ..." behind a hub). */
size_t xhci_show(char *buf, size_t size);

/* xhci_proc_init - add /proc/usb (/proc must exist). */
void xhci_proc_init(void);

#endif
