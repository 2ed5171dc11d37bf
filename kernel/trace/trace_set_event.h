/* SPDX-License-Identifier: MIT */
/*
 * kernel/trace/trace_set_event.h - reading what is written to set_event
 * (Linux: ftrace_set_clr_event in kernel/trace/trace_events.c).
 *
 * The value is a list of words separated by spaces, applied in order:
 *
 *   NAME  or  SYSTEM:NAME       turn that event on
 *   SYSTEM:*  or  SYSTEM:       every event of the system on
 *   *:*  or  *                  every event on
 *   !WORD                       the same, off
 *
 * An empty value turns every event off (ftrace's `echo > set_event`).
 * A word that names no event is EINVAL, and then nothing changes.
 * Pure logic, for the host too (tests/unit/test_trace_set_event.c).
 */
#ifndef KERNEL_TRACE_TRACE_SET_EVENT_H
#define KERNEL_TRACE_TRACE_SET_EVENT_H

#include <stddef.h>
#include <stdint.h>

/* The longest word shown back in an error, with its NUL. */
#define TRACE_WORD_MAX 64

/*
 * trace_set_event_parse - the events value turns on and off.
 * @value:   what was written (no newline)
 * @systems: the system of each event ("kmem"), n of them (n <= 64)
 * @names:   the name of each event ("mm_page_alloc")
 * @on:      set to the events to turn on, a bit per event
 * @off:     set to the events to turn off (never a bit that is in *on)
 * @bad:     on failure, the word that named nothing (TRACE_WORD_MAX bytes)
 *
 * Returns 0, or -EINVAL with *on and *off 0.
 */
int trace_set_event_parse(const char *value, const char *const *systems,
			  const char *const *names, unsigned int n,
			  uint64_t *on, uint64_t *off, char *bad);

#endif
