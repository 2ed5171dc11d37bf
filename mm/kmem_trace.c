// SPDX-License-Identifier: MIT
/*
 * mm/kmem_trace.c - the kmem: events: kmem:mm_page_alloc, its recorder
 * and how it prints (kernel/trace/trace_event.h).
 */
#include "mm/kmem_trace.h"

#include <stdio.h>

#include "arch/x86_64/asm/tracepoint.h"
#include "kernel/trace/trace_event.h"
#include "mm/page.h"

uint64_t trace_page_pfn(const struct page *page)
{
	return page ? page_to_pfn(page) : ~0ull;
}

const char *trace_pfn_str(uint64_t pfn, char *buf, size_t size)
{
	if (pfn == ~0ull)
		snprintf(buf, size, "none");
	else
		snprintf(buf, size, "0x%llx", (unsigned long long)pfn);
	return buf;
}

static void print_mm_page_alloc(const struct trace_entry *e, char *buf,
				size_t size)
{
	char pfn[24];

	snprintf(buf, size, "order=%llu gfp=0x%llx pfn=%s",
		 (unsigned long long)e->arg[0], (unsigned long long)e->arg[1],
		 trace_pfn_str(e->arg[2], pfn, sizeof(pfn)));
}

TRACE_EVENT_DEFINE(kmem, mm_page_alloc, 00, print_mm_page_alloc);

TRACE_THUNK(__trace_mm_page_alloc);

void __trace_mm_page_alloc(struct page *page, unsigned int order, gfp_t gfp)
{
	unsigned long flags;
	struct trace_entry *e =
		trace_record_begin(&trace_event_mm_page_alloc, &flags);

	if (!e)
		return;
	e->arg[0] = order;
	e->arg[1] = gfp;
	e->arg[2] = trace_page_pfn(page);
	trace_record_end(flags);
}
