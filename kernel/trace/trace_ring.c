// SPDX-License-Identifier: MIT
/*
 * kernel/trace/trace_ring.c - the per-CPU ring of trace entries
 * (kernel/trace/trace_ring.h): reserve a slot, overwriting the oldest
 * entry when full; read by position; consume; clear.
 */
#include "kernel/trace/trace_ring.h"

#include <stddef.h>
#include <string.h>

void trace_ring_init(struct trace_ring *ring, struct trace_entry *slots,
		     uint32_t size)
{
	ring->slots = slots;
	ring->size = size;
	ring->head = 0;
	ring->tail = 0;
	ring->written = 0;
	ring->lost = 0;
}

struct trace_entry *trace_ring_reserve(struct trace_ring *ring)
{
	struct trace_entry *slot;

	if (!ring->slots || !ring->size)
		return NULL;
	if (ring->head - ring->tail == ring->size) {
		ring->tail++;  /* full: the oldest entry goes */
		ring->lost++;
	}
	slot = &ring->slots[ring->head & (ring->size - 1)];
	ring->head++;
	ring->written++;
	memset(slot, 0, sizeof(*slot));
	return slot;
}

bool trace_ring_peek(const struct trace_ring *ring, uint64_t *pos,
		     struct trace_entry *out)
{
	if (*pos < ring->tail)
		*pos = ring->tail;  /* overtaken: the oldest entry left */
	if (*pos >= ring->head) {
		*pos = ring->head;
		return false;
	}
	*out = ring->slots[*pos & (ring->size - 1)];
	return true;
}

bool trace_ring_consume(struct trace_ring *ring, struct trace_entry *out)
{
	if (ring->tail == ring->head)
		return false;
	*out = ring->slots[ring->tail & (ring->size - 1)];
	ring->tail++;
	return true;
}

void trace_ring_clear(struct trace_ring *ring)
{
	ring->tail = ring->head;
	ring->written = 0;
	ring->lost = 0;
}
