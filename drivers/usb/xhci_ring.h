/* SPDX-License-Identifier: MIT */
/*
 * drivers/usb/xhci_ring.h - xHCI rings: the TRB, the producer
 * side of a command or transfer ring, the consumer side of an event ring.
 */
#ifndef ARCH_X86_64_XHCI_RING_H
#define ARCH_X86_64_XHCI_RING_H

#include <stdbool.h>
#include <stdint.h>

/* A Transfer Request Block: 16 bytes, the unit of every ring. */
struct xhci_trb {
	uint64_t param;
	uint32_t status;
	uint32_t control;   /* bit 0: cycle; bits 15:10: type */
};

#define TRB_CYCLE        (1u << 0)
#define TRB_TOGGLE       (1u << 1)   /* link TRB: flip the cycle state */
#define TRB_ISP          (1u << 2)   /* interrupt on short packet */
#define TRB_IOC          (1u << 5)   /* interrupt (an event) on completion */
#define TRB_IDT          (1u << 6)   /* immediate data: param is the data */
#define TRB_TYPE(t)      ((uint32_t)(t) << 10)
#define TRB_GET_TYPE(c)  (((c) >> 10) & 0x3f)

/*
 * A producer ring (commands, or one endpoint's transfers): size TRBs in
 * one segment, the last a link TRB back to the first. The producer
 * writes each TRB with its cycle bit = cycle; the consumer (the
 * controller) takes TRBs while their cycle bit matches its own. At the
 * link the producer hands the link TRB over and flips its cycle, so that
 * the old TRBs of the first lap no longer look new.
 */
struct xhci_ring {
	struct xhci_trb *trb;
	uint64_t phys;          /* bus address of trb[0] */
	unsigned int size;      /* TRBs, the link included */
	unsigned int enq;       /* next to write */
	uint32_t cycle;         /* producer cycle state, 0 or 1 */
};

/*
 * xhci_ring_init - make an empty producer ring of size TRBs (at least 2)
 * at trb (virtual) / phys (bus address), zeroed, with its link TRB.
 * Returns phys | 1: the dequeue pointer with the initial cycle state, as
 * CRCR and endpoint contexts take it.
 */
uint64_t xhci_ring_init(struct xhci_ring *r, struct xhci_trb *trb,
			uint64_t phys, unsigned int size);

/*
 * xhci_ring_push - write one TRB at the enqueue point (control without
 * its cycle bit: the ring sets it, last, after the other fields) and
 * advance, across the link if needed. Returns the TRB's bus address, which
 * the controller's event for it will name.
 */
uint64_t xhci_ring_push(struct xhci_ring *r, uint64_t param, uint32_t status,
			uint32_t control);

/*
 * An event ring (consumer side): one segment of size TRBs that the
 * controller fills; a TRB is new while its cycle bit equals cycle, which
 * starts at 1 and flips each time deq wraps.
 */
struct xhci_event_ring {
	struct xhci_trb *trb;
	uint64_t phys;
	unsigned int size;
	unsigned int deq;       /* next to read */
	uint32_t cycle;         /* consumer cycle state */
};

/* xhci_event_ring_init - an empty event ring (zeroed) over trb/phys. */
void xhci_event_ring_init(struct xhci_event_ring *er, struct xhci_trb *trb,
			  uint64_t phys, unsigned int size);

/* xhci_event_peek - the next event if the controller has written one,
 * else NULL. The caller reads it, then calls xhci_event_pop. */
const struct xhci_trb *xhci_event_peek(const struct xhci_event_ring *er);

/* xhci_event_pop - move past the event xhci_event_peek returned; returns
 * the bus address of the new dequeue point (for the ERDP register). */
uint64_t xhci_event_pop(struct xhci_event_ring *er);

#endif
