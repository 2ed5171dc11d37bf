// SPDX-License-Identifier: MIT
/*
 * mm/page_alloc.c - the page allocator's front (Linux: mm/page_alloc.c):
 * alloc_pages(), free_pages(), free_accounted_pages(), and what an
 * allocation does when no block is free.
 *
 * alloc_pages() is also where kernel-memory accounting starts, and
 * free_accounted_pages() where it ends. A block a domain pays for is
 * charged, allocated, then committed to its domain
 * (alloc_pages_charged); freed, it is uncharged, then freed. The hooks
 * are memcg's (mm/memcg_hooks.h); the call tree from here to the
 * counters is drawn once, in mm/memcg/memcg_charge.c.
 */
#include "mm/page_alloc_internal.h"

__noinline struct page *
fill_new_page_slow(struct page *page, unsigned int order, gfp_t gfp)
{
	if (page_poisoning)
		check_poison(page, order);
	if (page_poisoning || (gfp & __GFP_ZERO))
		memset(page_address(page),
		       (gfp & __GFP_ZERO) ? 0 : PAGE_POISON_ALLOC,
		       PAGE_SIZE << order);
	return page;
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
	free_page_flags_check("free_pages", page, order);
	__free_pages(page, order);
}

__noinline struct page *
alloc_pages_uncharged(gfp_t gfp, unsigned int order)
{
	struct page *page = __alloc_pages(gfp, order);

	/* mm_page_alloc; and, for an allocation that asked to be charged
	 * while the kmem key is on, memcg_kmem_domain (pays=nobody): one
	 * site for both. */
	trace_mm_page_alloc_unaccounted(page, order, gfp);
	return page;
}

/*
 * alloc_pages_charged - an allocation memcg pays for (memcg_kmem_payer,
 * as alloc_pages read it): charge, allocate, commit. The charge comes
 * first so that a domain at its limit never takes a page it cannot pay
 * for; its receipt names the domain charged, which the pages record.
 */
static __noinline struct page *
alloc_pages_charged(gfp_t gfp, unsigned int order, struct mem_cgroup *memcg)
{
	struct kmem_charge charge;
	struct page *page;

	charge = memcg_kmem_charge_pages(gfp, order, memcg);
	if (charge.from == KMEM_CHARGE_REFUSED)
		return NULL;  /* the domain is at its limit */
	page = __alloc_pages(gfp, order);
	trace_mm_page_alloc_charged(page, charge.memcg, order, gfp);
	if (unlikely(!page)) {
		memcg_kmem_cancel_charge(charge.memcg, order);
		return NULL;
	}
	memcg_kmem_commit_charge(page, charge.memcg);
	return page;
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	if (unlikely(order > MAX_ORDER))
		return NULL;
	/* A 5-byte NOP until the first kmem limit is set
	 * (docs/interface.md); then an allocation that asks to be charged
	 * goes to its payer, unless that is the root (the common case). */
	if (memcg_kmem_enabled() && (gfp & __GFP_KMEMCG)) {
		struct mem_cgroup *memcg = memcg_kmem_payer(current, gfp);

		if (memcg != root_mem_cgroup)
			return alloc_pages_charged(gfp, order, memcg);
	}
	return alloc_pages_uncharged(gfp, order);
}

void free_accounted_pages(struct page *page, unsigned int order)
{
	if (!page)
		return;
	free_page_is_descriptor("free_accounted_pages", page, order);
	/* A charged block: uncharge, then free. */
	if (page->flags & PG_kmemcg) {
		free_charged_check(page, order);
		memcg_kmem_uncharge_pages(page, order);
	} else {
		free_page_flags_check("free_accounted_pages", page, order);
	}
	__free_pages(page, order);
}
