/* SPDX-License-Identifier: MIT */
/*
 * kernel/trace/trace_event.h - what a subsystem writes to define its
 * events and record them (Linux: the TRACE_EVENT definitions of
 * include/trace/events/, their TP_fast_assign and TP_printk).
 *
 * Each event is defined once, in the .c file beside the code it watches:
 *
 *   TRACE_EVENT_DEFINE(kmem, mm_page_alloc, 00, print_mm_page_alloc);
 *
 * which defines its static key, trace_mm_page_alloc_key (the key the
 * sites test, kernel/base/tracepoint.h), and registers the event in the
 * linker's trace_events table: no central list names the events. The
 * system is the part before the colon in set_event ("kmem:mm_page_alloc"),
 * as in ftrace; the rank, two digits, is the event's place in
 * available_events (the linker sorts the table by it).
 *
 * Its recorder, called from the sites while the key is on, runs in the
 * context of the code it watches - interrupts off, a lock held, in the
 * middle of a page allocation - so it only copies: numbers into arg[], a
 * name or a domain's path into domain[] (the thing may be gone by the time
 * the trace is read), never a pointer. It takes no lock but its CPU's
 * ring's and allocates nothing:
 *
 *   unsigned long flags;
 *   struct trace_entry *e = trace_record_begin(&trace_event_mm_page_alloc,
 *                                              &flags);
 *   if (!e)
 *           return;                  // tracing_on is 0, or no rings yet
 *   e->arg[0] = order; ...           // fill in the fields
 *   trace_record_end(flags);
 *
 * begin takes this CPU's ring (its lock, interrupts off), reserves a slot
 * - overwriting the oldest entry if the ring is full - and stamps it with
 * the time, the CPU and the current task (kernel/trace/trace.c).
 */
#ifndef KERNEL_TRACE_TRACE_EVENT_H
#define KERNEL_TRACE_TRACE_EVENT_H

#include <stddef.h>

#include "kernel/base/static_key.h"
#include "kernel/trace/trace_ring.h"

/* How an event prints its fields, "order=2 gfp=0x4 pfn=0x1234". */
typedef void (*trace_print_fn)(const struct trace_entry *e, char *buf,
			       size_t size);

/* One event, an entry of the trace_events table. */
struct trace_event {
	const char *system;
	const char *name;
	struct static_key *key;
	trace_print_fn print;
};

/* TRACE_EVENT_DEFINE(system, name, rank, print) - above. */
#define TRACE_EVENT_DEFINE(sys, ev, rank, printer)                         \
	DEFINE_STATIC_KEY_FALSE(trace_##ev##_key);                         \
	const struct trace_event trace_event_##ev                          \
		__attribute__((used, section("trace_events." #rank),       \
			       aligned(8))) =                              \
		{#sys, #ev, &trace_##ev##_key, printer}

/* TRACE_EVENT_DECLARE(name) - the event, for a recorder above its
 * definition. */
#define TRACE_EVENT_DECLARE(ev) extern const struct trace_event trace_event_##ev

/* trace_event_on(name) - is the event's key on? A recorder of a site
 * that several events share records those that are. */
#define trace_event_on(ev) (static_key_count(&trace_##ev##_key) > 0)

/* trace_record_begin / trace_record_end - above. begin returns NULL when
 * nothing is to be recorded (tracing_on 0, or no rings yet). */
struct trace_entry *trace_record_begin(const struct trace_event *ev,
				       unsigned long *flags);
void trace_record_end(unsigned long flags);

#endif
