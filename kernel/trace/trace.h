/* SPDX-License-Identifier: MIT */
/*
 * kernel/trace/trace.h - the tracer: the table of events, per-CPU ring
 * buffers, turning events on and off, and reading the entries back
 * (Linux: kernel/trace/trace.c, trace_events.c, ring_buffer.c).
 *
 * The events register themselves (kernel/trace/trace_event.h); they are
 * numbered by their place in the table, 0 .. trace_event_count() - 1, the
 * number an entry keeps in its `event` field.
 *
 * The tracer sits low, below the memory code it watches: it allocates
 * nothing. Each CPU's ring is memory handed to it by the layer that owns
 * the control files (kernel/tracefs/), the first time an event is turned
 * on: a kernel that never traces keeps its memory, and its free lists
 * are what they would be without tracing.
 */
#ifndef KERNEL_TRACE_TRACE_H
#define KERNEL_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/trace/trace_event.h"
#include "kernel/trace/trace_ring.h"

/* The most events the tracer takes: set_event's masks have a bit each. */
#define TRACE_EVENTS_MAX 64

/* trace_event_count, trace_event_get - the events, in the order
 * available_events lists them. */
unsigned int trace_event_count(void);
const struct trace_event *trace_event_get(unsigned int id);

/* trace_init - at boot, once the CPUs are up: the rings' locks, and the
 * time stamps start. */
void trace_init(void);

/* trace_ring_ready - has CPU cpu been given its ring? trace_ring_give -
 * give it one: bytes of memory at mem, kept for ever. Once every running
 * CPU has its ring (trace_rings_ready), events may be turned on. Under
 * the control tree's lock. */
bool trace_ring_ready(unsigned int cpu);
void trace_ring_give(unsigned int cpu, void *mem, size_t bytes);
bool trace_rings_ready(void);

/* trace_event_enable - turn event id on or off: take or drop its static
 * key (which patches its sites). Under the control tree's lock. -ENOMEM
 * to turn one on while a CPU has no ring (and the event stays off),
 * else 0. */
int trace_event_enable(unsigned int id, bool on);
bool trace_event_enabled(unsigned int id);

/* tracing_on - record (1) or not (0); events stay on either way, as
 * ftrace's tracing_on. */
void trace_set_on(bool on);
bool trace_is_on(void);

/* trace_clear - empty every ring, and forget what was lost. */
void trace_clear(void);

/* Totals over the CPUs, for the header of `trace`. */
struct trace_totals {
	uint64_t entries;   /* in the rings now */
	uint64_t written;   /* since the last clear */
	uint64_t lost;      /* overwritten before being read */
};
void trace_totals(struct trace_totals *t);

/*
 * trace_next - the oldest entry of all CPUs at or after the reader's
 * positions pos[NR_CPUS] (start them at 0), copied to *out; the CPU's
 * position moves past it. consume: take it out of its ring instead (the
 * positions are then unused). Returns false when there is none.
 */
bool trace_next(uint64_t *pos, bool consume, struct trace_entry *out);

#endif
