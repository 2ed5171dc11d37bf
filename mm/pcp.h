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

#include "kernel/base/list.h"
#include "kernel/base/platform.h"
#include "mm/numa.h"
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

/* The out-of-line halves of the functions below: the list is empty
 * (refill it from the buddy allocator, then take a page; NULL if both are
 * empty), the page belongs to another node (straight back to its zone),
 * the list reached high (a batch back to the buddy allocator). Interrupts
 * off. */
struct page *pcp_refill_and_take(struct per_cpu_pages *pcp);
void pcp_free_foreign(struct page *page);
void pcp_drain_batch(struct per_cpu_pages *pcp);
/* pcp_free_page_slow - the rest of pcp_free_page: a page of another
 * node to its own node's free lists, or the page on a full list and a
 * batch drained. Interrupts off. */
void pcp_free_page_slow(struct page *page);

/* pcp_take_first - take the hottest page off a list that is not empty.
 * Interrupts off. */
static inline struct page *pcp_take_first(struct per_cpu_pages *pcp)
{
	struct page *page = list_first_entry(&pcp->list, struct page, lru);

	list_del_init(&page->lru);
	pcp->count--;
	return page;
}

/* pcp_alloc_page - a free page from this CPU's list, refilling the list
 * from the buddy allocator if it is empty; NULL if both are empty. The
 * page's flags are left to the caller. Any context. Inline, the common
 * case a few instructions: what is rare is out of line above. */
static inline struct page *pcp_alloc_page(void)
{
	struct per_cpu_pages *pcp;
	struct page *page;
	unsigned long flags;

	flags = local_irq_save();
	pcp = &pcp_lists[smp_processor_id()];
	if (likely(!list_empty(&pcp->list)))
		page = pcp_take_first(pcp);
	else
		page = pcp_refill_and_take(pcp);
	local_irq_restore(flags);
	return page;
}

/* pcp_free_page - put a free page (flags already cleared) on this CPU's
 * list. A page of another node goes to its own node's free lists, and a
 * full list drains a batch to the buddy allocator (pcp_free_page_slow). */
static inline void pcp_free_page(struct page *page)
{
	struct per_cpu_pages *pcp;
	unsigned long flags;

	flags = local_irq_save();
	pcp = &pcp_lists[smp_processor_id()];
	if (likely(page->node == numa_node_id() &&
		   pcp->count + 1 < pcp->high)) {
		page->flags = PG_pcp;
		list_add(&page->lru, &pcp->list);
		pcp->count++;
	} else {
		pcp_free_page_slow(page);
	}
	local_irq_restore(flags);
}

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
