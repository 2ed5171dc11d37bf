// SPDX-License-Identifier: MIT
/*
 * kernel/static_key_trace.c - static_key:static_key_patch: its
 * definition, recorder and how it prints (kernel/trace/trace_event.h).
 */
#include "kernel/static_key_trace.h"

#include <stdio.h>

#include "arch/x86_64/asm/tracepoint.h"
#include "kernel/trace/trace_event.h"

static void print_static_key_patch(const struct trace_entry *e, char *buf,
				   size_t size)
{
	snprintf(buf, size, "key=%s sites=%llu to=%s", e->domain,
		 (unsigned long long)e->arg[1], e->arg[0] ? "jmp" : "nop");
}

TRACE_EVENT_DEFINE(static_key, static_key_patch, 11, print_static_key_patch);

TRACE_THUNK(__trace_static_key_patch);

void __trace_static_key_patch(struct static_key *key, bool enable)
{
	unsigned long flags;
	struct trace_entry *e =
		trace_record_begin(&trace_event_static_key_patch, &flags);

	if (!e)
		return;
	e->arg[0] = enable;
	e->arg[1] = key->nr_entries;
	/* The key's name, in the domain field (keys live for ever, but the
	 * entry is a copy like every other). */
	snprintf(e->domain, sizeof(e->domain), "%s",
		 key->name ? key->name : "?");
	trace_record_end(flags);
}
