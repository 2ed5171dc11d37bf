/* SPDX-License-Identifier: MIT */
/*
 * mm/kmem_trace.h - the page allocator's tracepoints, the kmem: system
 * (Linux: include/trace/events/kmem.h). The sites are
 * kernel/base/tracepoint.h's; the event and its recorders are in
 * mm/kmem_trace.c.
 */
#ifndef MM_KMEM_TRACE_H
#define MM_KMEM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/base/tracepoint.h"
#include "mm/gfp.h"

struct page;

/* kmem:mm_page_alloc - alloc_pages() returns: order, gfp, pfn (none if it
 * failed). */
TRACEPOINT(mm_page_alloc, trace_mm_page_alloc,
	   (struct page *page, unsigned int order, gfp_t gfp),
	   (page, order, gfp))

/*
 * trace_mm_page_alloc_unaccounted - alloc_pages_uncharged returns: nobody pays
 * for the page. One site for two events: mm_page_alloc; and
 * memcg:memcg_kmem_domain (pays=nobody, and why) if the allocation asked
 * to be accounted while the kmem key is on - the root's allocations,
 * which alloc_pages sends here. Its recorder is memcg's
 * (mm/memcg/memcg_trace.c), which knows why nobody pays; the page
 * allocator names no memcg header.
 */
DECLARE_TRACEPOINT_KEY(memcg_kmem_domain);
TRACEPOINT_SHARED(trace_mm_page_alloc_unaccounted,
		  (&trace_mm_page_alloc_key, &trace_memcg_kmem_domain_key),
		  (struct page *page, unsigned int order, gfp_t gfp),
		  (page, order, gfp))

/*
 * trace_mm_page_alloc_charged - alloc_pages returns a block that memcg
 * was charged for (NULL: nobody pays after all, or none came): two
 * events at one site, memcg_kmem_commit and mm_page_alloc. Its recorder
 * is memcg's too.
 */
struct mem_cgroup;
DECLARE_TRACEPOINT_KEY(memcg_kmem_commit);
TRACEPOINT_SHARED(trace_mm_page_alloc_charged,
		  (&trace_memcg_kmem_commit_key, &trace_mm_page_alloc_key),
		  (struct page *page, struct mem_cgroup *memcg,
		   unsigned int order, gfp_t gfp),
		  (page, memcg, order, gfp))

/* For the recorders of events about a page: its pfn (~0 for none, an
 * allocation that failed), and that pfn as the trace prints it,
 * "0x1234" or "none". */
uint64_t trace_page_pfn(const struct page *page);
const char *trace_pfn_str(uint64_t pfn, char *buf, size_t size);

#endif
