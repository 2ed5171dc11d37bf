// SPDX-License-Identifier: MIT
/*
 * mm/page_alloc.c - the page allocator's front (Linux: mm/page_alloc.c):
 * what an allocation does when no block is free, and free_pages().
 */
#include "mm/page_alloc_internal.h"

/* fill_new_poisoned - with poisoning on: check that the free block was
 * not written to, then fill it with zeroes or the allocation pattern. */
__attribute__((noinline, cold)) void
fill_new_poisoned(struct page *page, unsigned int order, gfp_t gfp)
{
	check_poison(page, order);
	memset(page_address(page),
	       (gfp & __GFP_ZERO) ? 0 : PAGE_POISON_ALLOC, PAGE_SIZE << order);
}

/* Failures are logged, the first few of them: an out-of-memory storm (a
 * fork bomb in the root domain) must not flood the console. */
#define ALLOC_FAILURES_LOGGED 5
static unsigned long alloc_failures;

/*
 * alloc_pages_slowpath - no block was free. Pages may be sitting on other
 * CPUs' per-CPU lists: drain them and try again. __GFP_NOFAIL callers keep
 * trying (other CPUs may be freeing memory), and a panic ends it if memory
 * is truly gone.
 */
struct page *alloc_pages_slowpath(gfp_t gfp, unsigned int order)
{
	/* Draining other CPUs waits for them: not from an interrupt handler
	 * or with a lock held (a CPU spinning on it with interrupts off
	 * would never answer). Those callers drain only their own list. */
	bool may_wait = !(gfp & __GFP_ATOMIC) && !in_interrupt();
	int attempts = (gfp & __GFP_NOFAIL) ? 1000 : 1;
	struct page *page;

	for (int i = 0; i < attempts; i++) {
		if (may_wait)
			drain_all_pages();
		else
			drain_local_pages();
		page = rmqueue(order);
		if (page)
			return page;
		for (int spin = 0; spin < 1000; spin++)
			cpu_relax();
	}
	if (gfp & __GFP_NOFAIL)
		panic("alloc_pages: out of memory: __GFP_NOFAIL order-%u "
		      "allocation cannot be met (%lu pages free)",
		      order, nr_free_pages());
	if (!(gfp & __GFP_NOWARN) &&
	    __atomic_fetch_add(&alloc_failures, 1, __ATOMIC_RELAXED) <
		    ALLOC_FAILURES_LOGGED)
		printk("alloc_pages: order-%u allocation failed (gfp 0x%x, "
		       "%lu pages free)\n", order, gfp, nr_free_pages());
	return NULL;
}

void free_pages(struct page *page, unsigned int order)
{
	if (!page)
		return;
	free_page_is_descriptor("free_pages", page, order);
	free_page_flags_check("free_pages", page, order, PAGE_FLAGS_CHECK);
	__free_pages(page, order);
}
