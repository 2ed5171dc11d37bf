// SPDX-License-Identifier: MIT
/*
 * mm/memcg/charged_pages.c - the pages a domain pays for: their allocation
 * and their free, with the charge (Linux: __alloc_pages' memcg_kmem
 * hooks, __memcg_kmem_charge_page and __memcg_kmem_uncharge_page).
 *
 * alloc_pages_charged - allocate 2^order pages charged to memcg (who pays,
 * as alloc_pages read it), or to nobody if the charge finds nobody pays.
 * Returns NULL if the charge was refused or no pages were free.
 * alloc_page_charged - the same for one page, the common case.
 * free_charged_pages - free a block with PG_kmemcg (free_accounted_pages
 * checked its flags) and give its charge back: to this CPU's stock if
 * that caches the block's domain and has room, else to the counters
 * (memcg_kmem_uncharge_page). The block is freed first: for a moment the
 * domain pays for a page it no longer has, never the reverse.
 * free_charged_page - the same for one page.
 *
 * alloc_pages() sends here an allocation with __GFP_KMEMCG, while the
 * kmem key is on, by a task whose domain is not the root; and
 * free_accounted_pages() a page with PG_kmemcg. The call tree from here to
 * the counters is drawn once, in mm/memcg/memcg_charge.c.
 *
 * The stock and the per-CPU page list are the same kind of thing: a
 * per-CPU cache in front of something shared. So an order-0 page and its
 * charge are taken, and given back, in one interrupts-off section, here.
 */
#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcg_trace.h"
#include "mm/memcg/stock.h"
#include "mm/page_alloc_internal.h"

/*
 * __alloc_pages_with_charge - the pages for a charge this CPU tried to make
 * on its own (KMEM_CHARGE_NOBODY: it could not): the counters charged if
 * need be, the pages taken from the buddy allocator, and the charge
 * committed to them - or given back if none came.
 */
static __always_inline struct page *
__alloc_pages_with_charge(gfp_t gfp, unsigned int order,
			  struct kmem_charge charge)
{
	struct page *page;

	if (charge.from == KMEM_CHARGE_LATER) {
		charge = memcg_kmem_charge_later(charge, gfp, order);
		if (charge.from == KMEM_CHARGE_REFUSED)
			return NULL;  /* the domain is at its limit */
	}
	page = __alloc_pages(gfp, order);
	trace_memcg_kmem_charged_alloc(page, charge.memcg, (int)order, gfp,
				       charge.from);
	if (unlikely(!page)) {
		memcg_kmem_cancel_charge(charge, order);
		return NULL;
	}
	memcg_kmem_commit_charge(page, charge);
	return page;
}

/* alloc_pages_with_charge - the same, out of line: the rest of
 * alloc_page_charged. */
static __noinline struct page *
alloc_pages_with_charge(gfp_t gfp, unsigned int order,
			struct kmem_charge charge)
{
	return __alloc_pages_with_charge(gfp, order, charge);
}

struct page *alloc_pages_charged(gfp_t gfp, unsigned int order,
				 struct mem_cgroup *memcg)
{
	struct kmem_charge charge;
	unsigned long flags;

	flags = local_irq_save();
	charge = __memcg_kmem_charge_local(memcg, order, gfp);
	local_irq_restore(flags);
	return __alloc_pages_with_charge(gfp, order, charge);
}

struct page *alloc_page_charged(gfp_t gfp, struct mem_cgroup *memcg)
{
	struct kmem_charge charge;
	struct page *page = NULL;
	unsigned long flags;

	/* The charge from this CPU's stock (or exactly, if there is no
	 * stock) and the page from this CPU's list, in one section. The
	 * rest - fault injection on, memory near the reserve, the list
	 * empty - is __alloc_pages' (alloc_pages_with_charge). */
	flags = local_irq_save();
	charge = __memcg_kmem_charge_local(memcg, 0, gfp);
	if (likely(charge.from != KMEM_CHARGE_LATER) &&
	    likely(!fail_page_on() && zone_watermark_plenty()))
		page = __pcp_try_alloc_page();
	local_irq_restore(flags);
	if (unlikely(!page))
		return alloc_pages_with_charge(gfp, 0, charge);
	prep_new_page(page, 0);
	memcg_kmem_commit_charge(page, charge);
	trace_memcg_kmem_charged_alloc(page, charge.memcg, 0, gfp,
				       charge.from);
	return fill_new_page(page, 0, gfp);
}

/* free_charged_pages_rest - the rest of a charged free, out of line: the
 * block to the allocator, then its charge to the counters unless the
 * stock took it (ret). */
static __noinline void
free_charged_pages_rest(struct page *page, unsigned int order,
			struct mem_cgroup *memcg, enum stock_return ret)
{
	__free_pages_prepared(page, order);
	if (ret == STOCK_RETURNED)
		trace_memcg_kmem_stock_free(page, memcg, (int)order);
	else
		memcg_kmem_uncharge_page(memcg, 1ul << order, page, ret);
}

void free_charged_pages(struct page *page, unsigned int order)
{
	struct mem_cgroup *memcg = page->memcg;
	enum stock_return ret;
	unsigned long flags;

	free_charged_check(page, order);
	free_prepare(page, order);
	flags = local_irq_save();
	ret = __stock_return_kmem(this_cpu_stock(), memcg, 1u << order);
	local_irq_restore(flags);
	if (unlikely(ret != STOCK_RETURNED)) {
		free_charged_pages_rest(page, order, memcg, ret);
		return;
	}
	trace_memcg_kmem_stock_free(page, memcg, (int)order);
	__free_pages_prepared(page, order);
}

void free_charged_page(struct page *page)
{
	struct mem_cgroup *memcg = page->memcg;
	enum stock_return ret;
	unsigned long flags;
	bool listed;

	/* With the debug checks or poisoning on, the general path. */
	if (unlikely(debug_check_on_free() || page_poisoning)) {
		free_charged_pages(page, 0);
		return;
	}
	if (unlikely(!memcg))
		bad_free("free_accounted_pages", page, 0);
	free_reset(page);
	/* The charge back to this CPU's stock and the page to this CPU's
	 * list, in one section. */
	flags = local_irq_save();
	ret = __stock_return_kmem(this_cpu_stock(), memcg, 1);
	listed = __pcp_try_free_page(page);
	local_irq_restore(flags);
	if (unlikely(!listed)) {
		/* A page of another node, or the list full. */
		free_charged_pages_rest(page, 0, memcg, ret);
		return;
	}
	if (likely(ret == STOCK_RETURNED))
		trace_memcg_kmem_stock_free(page, memcg, 0);
	else
		memcg_kmem_uncharge_page(memcg, 1, page, ret);
}
