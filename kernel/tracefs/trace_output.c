// SPDX-License-Identifier: MIT
/*
 * kernel/tracefs/trace_output.c - an entry as the trace prints it
 * (Linux: kernel/trace/trace_output.c): the task, the CPU, the time in
 * seconds with microseconds as ftrace shows it, the event's name, and
 * its fields as the event's own print function writes them.
 */
#include "kernel/tracefs/tracefs.h"

#include <stdint.h>
#include <stdio.h>

#include "arch/x86_64/lapic.h"
#include "kernel/trace/trace.h"

void trace_format(const struct trace_entry *e, char *buf, size_t size)
{
	uint64_t us = tsc_khz ? e->ts * 1000 / tsc_khz : e->ts / 1000;
	char fields[192];
	char task[TRACE_COMM_MAX + 16];
	const struct trace_event *ev = trace_event_get(e->event);

	fields[0] = '\0';
	if (ev && ev->print)
		ev->print(e, fields, sizeof(fields));
	snprintf(task, sizeof(task), "%s-%d", e->comm, (int)e->pid);
	snprintf(buf, size, "%22s [%03u] %5llu.%06llu: %s: %s\n", task,
		 (unsigned int)e->cpu, (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000),
		 ev ? ev->name : "unknown", fields);
}
