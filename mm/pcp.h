/* SPDX-License-Identifier: MIT */
/*
 * mm/pcp.h - per-CPU lists of free order-0 pages (Linux: per_cpu_pages).
 *
 * Most allocations are single pages. Each CPU keeps a short list of free
 * pages of its own, so that allocating or freeing one page touches only
 * this CPU's list, with local interrupts off, and no shared lock. The list
 * is refilled from the buddy allocator, and drained back to it, `batch`
 * pages at a time, under the zone lock.
 */
#ifndef MM_PCP_H
#define MM_PCP_H

#include "kernel/lib/list.h"
#include "kernel/platform.h"
#include "mm/page.h"

struct per_cpu_pages {
	int count;              /* pages on the list */
	int high;               /* when count reaches high, drain batch pages */
	int batch;              /* pages moved to or from the buddy at once */
	struct list_head list;  /* free pages, hottest (last freed) first */
} __cacheline_aligned;

/* One per CPU, indexed by smp_processor_id(). */
extern struct per_cpu_pages pcp_lists[NR_CPUS];

/* pcp_init - empty every list and size batch and high from totalram_pages
 * (mm_init calls it after handing RAM to the buddy allocator). */
void pcp_init(void);

/* pcp_alloc_page - a free page from this CPU's list, refilling the list
 * from the buddy allocator if it is empty; NULL if both are empty. The
 * page's flags are left to the caller. Any context. */
struct page *pcp_alloc_page(void);

/* pcp_free_page - put a free page (flags already cleared) on this CPU's
 * list; drains a batch to the buddy allocator when the list is full. */
void pcp_free_page(struct page *page);

/* drain_local_pages - give all of this CPU's list back to the buddy
 * allocator. Any context. */
void drain_local_pages(void);

/*
 * drain_all_pages - drain every CPU's list (smp_call_function_all), so that
 * their pages can merge into larger blocks or serve another CPU. Waits for
 * the other CPUs: call it only outside interrupt context and without
 * spinlocks held.
 */
void drain_all_pages(void);

/* pcp_nr_pages - pages on all per-CPU lists (a snapshot). */
unsigned long pcp_nr_pages(void);

#endif
