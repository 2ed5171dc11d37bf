// SPDX-License-Identifier: MIT
/*
 * drivers/usb/xhci_ring.c - the index and cycle-bit arithmetic
 * of xHCI rings (xHCI 1.2, section 4.9), apart from any register, so that
 * it can be tested on the host.
 *
 * Ownership of a TRB is its cycle bit. A producer ring starts with every
 * TRB zero and a cycle state of 1: zero TRBs belong to the producer. Each
 * TRB is written with the cycle state, the cycle bit last, so that the
 * controller never sees a half-written TRB as its own. The last slot holds
 * a link TRB (type 6) pointing back to the first with Toggle Cycle set:
 * when the producer reaches it, it gives the link to the controller (sets
 * its cycle bit) and flips its own cycle state for the next lap.
 *
 * An event ring is the mirror image: the controller produces, tally
 * consumes, and the consumer's cycle state flips when it wraps.
 */
#include "drivers/usb/xhci_ring.h"

#include <string.h>

#define TRB_LINK 6

static inline void compiler_barrier(void)
{
	__asm__ volatile("" ::: "memory");
}

uint64_t xhci_ring_init(struct xhci_ring *r, struct xhci_trb *trb,
			uint64_t phys, unsigned int size)
{
	memset(trb, 0, sizeof(*trb) * size);
	r->trb = trb;
	r->phys = phys;
	r->size = size;
	r->enq = 0;
	r->cycle = 1;
	trb[size - 1].param = phys;
	trb[size - 1].control = TRB_TYPE(TRB_LINK) | TRB_TOGGLE;
	return phys | 1;
}

uint64_t xhci_ring_push(struct xhci_ring *r, uint64_t param, uint32_t status,
			uint32_t control)
{
	struct xhci_trb *t = &r->trb[r->enq];
	uint64_t at = r->phys + (uint64_t)r->enq * sizeof(*t);

	t->param = param;
	t->status = status;
	compiler_barrier();
	t->control = (control & ~TRB_CYCLE) | r->cycle;
	compiler_barrier();
	if (++r->enq == r->size - 1) {
		/* Hand the link over, then start the next lap. */
		struct xhci_trb *link = &r->trb[r->size - 1];
		link->control = (link->control & ~TRB_CYCLE) | r->cycle;
		compiler_barrier();
		r->enq = 0;
		r->cycle ^= 1;
	}
	return at;
}

void xhci_event_ring_init(struct xhci_event_ring *er, struct xhci_trb *trb,
			  uint64_t phys, unsigned int size)
{
	memset(trb, 0, sizeof(*trb) * size);
	er->trb = trb;
	er->phys = phys;
	er->size = size;
	er->deq = 0;
	er->cycle = 1;
}

const struct xhci_trb *xhci_event_peek(const struct xhci_event_ring *er)
{
	const volatile struct xhci_trb *t = &er->trb[er->deq];

	if ((t->control & TRB_CYCLE) != er->cycle)
		return NULL;
	compiler_barrier();     /* read the fields after the cycle bit */
	return (const struct xhci_trb *)t;
}

uint64_t xhci_event_pop(struct xhci_event_ring *er)
{
	if (++er->deq == er->size) {
		er->deq = 0;
		er->cycle ^= 1;
	}
	return er->phys + (uint64_t)er->deq * sizeof(struct xhci_trb);
}
