/* SPDX-License-Identifier: MIT */
/*
 * kernel/trace/trace.h - the tracer: per-CPU ring buffers, turning events
 * on and off, and reading the trace back (Linux: kernel/trace/trace.c).
 *
 * Recording (kernel/trace/trace_events.c, from a tracepoint):
 *
 *   unsigned long flags;
 *   struct trace_entry *e = trace_record_begin(TRACE_mm_page_alloc, &flags);
 *   if (!e)
 *           return;                  // tracing_on is 0
 *   e->arg[0] = order; ...           // fill in the fields
 *   trace_record_end(flags);
 *
 * begin takes this CPU's ring (its lock, interrupts off), reserves a slot -
 * overwriting the oldest entry if the ring is full - and stamps it with the
 * time, the CPU and the current task. Nothing allocates: each CPU's ring
 * is allocated once, when the first event is turned on.
 */
#ifndef KERNEL_TRACE_TRACE_H
#define KERNEL_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/trace/trace_events.h"
#include "kernel/trace/trace_ring.h"

/* How an event prints its fields, "order=2 gfp=0x4 pfn=0x1234". */
typedef void (*trace_print_fn)(const struct trace_entry *e, char *buf,
			       size_t size);

/* One event of TRACE_EVENT_LIST (kernel/trace/trace_events.c). */
struct trace_event {
	const char *system;
	const char *name;
	struct static_key *key;
	trace_print_fn print;
};
extern const struct trace_event trace_events[NR_TRACE_EVENTS];

/* trace_record_begin / trace_record_end - above. begin returns NULL when
 * nothing is to be recorded (tracing_on 0, or before trace_init). */
struct trace_entry *trace_record_begin(enum trace_event_id id,
				       unsigned long *flags);
void trace_record_end(unsigned long flags);

/* trace_init - at boot, once the CPUs are up: the directory
 * /sys/kernel/tracing (kernel/trace/trace_fs.c). The rings are allocated
 * when the first event is turned on. */
void trace_init(void);
void trace_fs_init(void);

/* trace_event_enable - turn event id on or off: take or drop its static
 * key (which patches its sites). Under the control tree's lock. The first
 * event turned on allocates every CPU's ring: -ENOMEM if that fails (and
 * the event stays off), else 0. */
int trace_event_enable(enum trace_event_id id, bool on);
bool trace_event_enabled(enum trace_event_id id);

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

/* trace_format - one line of the trace, with its newline:
 *   "      spin-7       [001]    12.345678: mm_page_alloc: order=0 ..."
 * (the task name right-aligned in 16 columns; shortened here). */
void trace_format(const struct trace_entry *e, char *buf, size_t size);

#endif
