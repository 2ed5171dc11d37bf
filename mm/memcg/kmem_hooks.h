/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/kmem_hooks.h - the page allocator's hooks of kernel-memory
 * accounting: the charge, memcg_kmem_commit_page and
 * memcg_kmem_uncharge_page (Linux 2012: memcg_kmem_newpage_charge,
 * memcg_kmem_commit_charge, memcg_kmem_uncharge_pages). They learn who
 * pays from memcg_kmem_payer (mm/memcg_hooks.h).
 *
 * A charge is a receipt (struct kmem_charge): taken before the pages are
 * allocated, then committed to the page (memcg_kmem_commit_page) or, if
 * no page came, cancelled (memcg_kmem_cancel_charge). The receipt names
 * the domain charged: the task may move to another domain in between,
 * and the page belongs to the domain that paid.
 *
 * The page allocator (mm/memcg/charged_pages.c) takes a charge in two
 * steps: first __memcg_kmem_charge_local, in its own interrupts-off
 * section that also takes the page from this CPU's list; if that left
 * the counters for later, memcg_kmem_charge_later, with interrupts on.
 * The whole call tree, down to the counters: mm/memcg/memcg_charge.c.
 */
#ifndef MM_KMEM_HOOKS_H
#define MM_KMEM_HOOKS_H

#include "kernel/base/static_key.h"
#include "kernel/task/task.h"
#include "mm/memcg/memcg_trace.h"
#include "mm/gfp.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"
#include "mm/memcg_hooks.h"
#include "mm/page.h"

/**
 * memcg_kmem_get_payer - who pays for the current task's allocation, with
 * references on it.
 * @gfp:     the allocation's flags
 * @nr_refs: references to take (one per page the caller will charge)
 *
 * Returns NULL if nobody pays (memcg_kmem_payer's root, a domain
 * without a kmem limit). Used by the slab's child caches
 * (mm/memcg/memcg_slab.c).
 */
struct mem_cgroup *memcg_kmem_get_payer(gfp_t gfp, unsigned int nr_refs);

/* The receipt of a charge: who was charged, and how far the charge got.
 * Each state has one meaning. */
enum kmem_charge_from {
	KMEM_CHARGE_NOBODY,    /* nobody pays: nothing charged, memcg NULL */
	KMEM_CHARGE_STOCK,     /* taken from this CPU's stock */
	KMEM_CHARGE_COUNTERS,  /* charged to the counters */
	KMEM_CHARGE_LATER,     /* memcg pays, and holds the pages'
				* references; the counters are charged
				* later, interrupts on
				* (memcg_kmem_charge_later) */
	KMEM_CHARGE_REFUSED,   /* over a limit: the allocation must fail */
};

struct kmem_charge {
	struct mem_cgroup *memcg;  /* the domain charged, or NULL */
	enum kmem_charge_from from;
};

/**
 * __memcg_kmem_charge_local - charge 2^order pages to memcg without
 * leaving this CPU, interrupts off (the caller's section, which may take
 * the page from this CPU's list too).
 * @memcg: who pays, decided before the section (memcg_kmem_payer), and
 *         until now only compared, never read
 * @order: the allocation's order
 * @gfp:   its flags
 *
 * From this CPU's stock if it holds kernel charge for @memcg: the stock
 * holds references on its domain, so a hit needs no other test. On a
 * miss, @memcg is read, so it must be alive: it is if it is still the
 * task's payer (a task moves to another domain only after every CPU has
 * left such a section). Then the references the pages will hold are
 * taken, and keep it alive from here on; and, if no stock is in use for
 * kernel charge, the counters are charged exactly (they are lock-free).
 *
 * Returns the receipt: STOCK, COUNTERS, LATER (memcg_kmem_charge_later charges
 * the counters: a batch for the stock, or the long way after a refusal),
 * or NOBODY (the task moved meanwhile, or @memcg has no kmem limit).
 */
static __always_inline struct kmem_charge
__memcg_kmem_charge_local(struct mem_cgroup *memcg, unsigned int order,
			  gfp_t gfp)
{
	struct memcg_stock_pcp *stock = this_cpu_stock();
	unsigned int nr_pages = 1u << order;
	int64_t bytes = (int64_t)PAGE_SIZE << order;

	if (likely(__stock_take(stock, memcg, nr_pages, true)))
		return (struct kmem_charge){memcg, KMEM_CHARGE_STOCK};
	trace_memcg_kmem_stock_miss(gfp, (int)order, memcg, stock);
#ifdef TALLY_HOST
	if (!memcg)
		return (struct kmem_charge){NULL, KMEM_CHARGE_NOBODY};
#endif
	if (memcg_kmem_payer(current, gfp) != memcg ||
	    !memcg_kmem_is_accounted(memcg))
		return (struct kmem_charge){NULL, KMEM_CHARGE_NOBODY};
	mem_cgroup_get_many(memcg, nr_pages);
	if (memcg_stock_takes_kmem(nr_pages) ||
	    unlikely(__res_counter_try_charge_two(&memcg->res, &memcg->kmem,
						  bytes)))
		return (struct kmem_charge){memcg, KMEM_CHARGE_LATER};
	trace_res_counter_charge_two(&memcg->res, &memcg->kmem, bytes);
	return (struct kmem_charge){memcg, KMEM_CHARGE_COUNTERS};
}

/**
 * memcg_kmem_charge_later - the charge __memcg_kmem_charge_local left for later
 * (KMEM_CHARGE_LATER), with interrupts on: the counters charged through
 * memcg_charge_kmem_counters (a batch if this CPU's stock takes kernel
 * charge, draining, reclaim). The receipt's references keep its domain
 * alive meanwhile, and are dropped if the charge is refused.
 *
 * Returns the receipt: KMEM_CHARGE_COUNTERS, or KMEM_CHARGE_REFUSED (over
 * a limit, after draining and reclaim).
 */
struct kmem_charge memcg_kmem_charge_later(struct kmem_charge charge, gfp_t gfp,
				     unsigned int order);

/*
 * memcg_kmem_commit_charge - the page takes the receipt's charge and
 * references: its domain is recorded in it (PG_kmemcg). A receipt that
 * charged nobody leaves the page uncharged.
 * memcg_kmem_cancel_charge - no page came: the charge is given back.
 */
static inline void memcg_kmem_commit_charge(struct page *page,
					    struct kmem_charge charge)
{
	if (charge.memcg) {
		page->memcg = charge.memcg;
		page->flags |= PG_kmemcg;
	}
}

void memcg_kmem_cancel_charge(struct kmem_charge charge, unsigned int order);

/*
 * memcg_kmem_new_page, memcg_kmem_commit_page - the 2012 pair, for
 * callers that charge before they allocate: the unit tests, and (commit
 * only) the slab's child caches, memcg_slab_alloc_pages. new_page
 * returns false if the charge was refused; *handle is the domain
 * charged, or NULL.
 * commit_page with page NULL gives the charge back.
 */
bool memcg_kmem_new_page(gfp_t gfp, struct mem_cgroup **handle, int order);
void memcg_kmem_commit_page(struct page *page, struct mem_cgroup *handle,
			    int order);

/* memcg_kmem_uncharge_page - the third hook (Linux 2012:
 * memcg_kmem_uncharge_pages), for a charge the stock did not take back:
 * recorded, and given back to the counters with its references. The page
 * is free by now: it is only named (its pfn), never read. */
void memcg_kmem_uncharge_page(struct mem_cgroup *memcg,
			      unsigned long nr_pages, struct page *page,
			      enum stock_return why);

#endif
