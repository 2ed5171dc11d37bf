/* SPDX-License-Identifier: MIT */
/*
 * kernel/trace/trace_ring.h - a fixed-size ring of trace entries, one per
 * CPU (Linux: kernel/trace/ring_buffer.c, much simplified).
 *
 * A ring is an array of `size` entries (a power of two) and two counts of
 * entries ever written: head (the next one to write) and tail (the oldest
 * one still to read). Entry number n lives in slot n % size, so
 *
 *   head - tail              entries in the ring (at most size)
 *   writing when it is full  overwrites the oldest: tail moves on by one
 *                            and `lost` counts it (ftrace's "overrun")
 *
 * Readers name an entry by its number, a position that never wraps, so a
 * reader that was overtaken by the writer notices (its position is below
 * tail) and skips to the oldest entry left.
 *
 * Pure logic: no locks, no clock, no CPU numbers. The caller serialises
 * (kernel/trace/trace.c takes the CPU's ring lock with interrupts off)
 * and gives the timestamp. Nothing here allocates: the slots are given
 * to trace_ring_init once. Host programs test it
 * (tests/unit/test_trace.c).
 */
#ifndef KERNEL_TRACE_TRACE_RING_H
#define KERNEL_TRACE_TRACE_RING_H

#include <stdbool.h>
#include <stdint.h>

#define TRACE_COMM_MAX 16    /* as TASK_COMM_MAX */
#define TRACE_DOMAIN_MAX 40  /* a domain's path, cut to fit */
#define TRACE_ARGS 5

/* One event as recorded: what the trace prints, copied at the time. */
struct trace_entry {
	uint64_t ts;        /* TSC ticks since tracing was set up */
	uint16_t event;     /* the event's place in the tracer's table */
	uint16_t cpu;
	int32_t pid;
	char comm[TRACE_COMM_MAX];
	uint64_t arg[TRACE_ARGS];        /* the event's numbers */
	char domain[TRACE_DOMAIN_MAX];   /* the event's domain, or "" */
};

struct trace_ring {
	struct trace_entry *slots;
	uint32_t size;       /* a power of two */
	uint64_t head;       /* entries ever written */
	uint64_t tail;       /* the oldest entry not yet cleared or read */
	uint64_t written;    /* entries written since the last clear */
	uint64_t lost;       /* of those, overwritten before they were read */
};

/* trace_ring_init - an empty ring over size slots (a power of two). */
void trace_ring_init(struct trace_ring *ring, struct trace_entry *slots,
		     uint32_t size);

/*
 * trace_ring_reserve - the slot for a new entry, which the caller fills
 * before anyone else touches the ring. A full ring gives up its oldest
 * entry (counted in lost). Never fails; NULL only for a ring without
 * slots.
 */
struct trace_entry *trace_ring_reserve(struct trace_ring *ring);

/*
 * trace_ring_peek - copy the entry at position *pos to *out, without
 * consuming it. A position already overwritten or cleared moves to the
 * oldest entry left. Returns false (and leaves *pos at head) when there
 * is no entry at or after *pos.
 */
bool trace_ring_peek(const struct trace_ring *ring, uint64_t *pos,
		     struct trace_entry *out);

/* trace_ring_consume - copy the oldest entry to *out and remove it (as
 * reading trace_pipe does); false if the ring is empty. */
bool trace_ring_consume(struct trace_ring *ring, struct trace_entry *out);

/* trace_ring_clear - forget every entry and the counts (written, lost). */
void trace_ring_clear(struct trace_ring *ring);

/* trace_ring_entries - how many entries the ring holds now. */
static inline uint64_t trace_ring_entries(const struct trace_ring *ring)
{
	return ring->head - ring->tail;
}

#endif
