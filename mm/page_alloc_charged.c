// SPDX-License-Identifier: MIT
/*
 * mm/page_alloc_charged.c - alloc_pages() and free_accounted_pages(): the
 * allocations a domain may pay for, and their frees.
 */
#include "mm/page_alloc_internal.h"

/* alloc_pages_raw - an allocation that nobody pays for. */
static __attribute__((noinline)) struct page *
alloc_pages_raw(gfp_t gfp, unsigned int order)
{
	struct page *page = __alloc_pages(gfp, order);

	/* mm_page_alloc; and memcg_kmem_domain (pays=nobody) for the
	 * root's accounted allocations: one site for both. */
	trace_mm_page_alloc_unaccounted(page, order, gfp);
	return page;
}

/*
 * __alloc_pages_accounted - an allocation to be charged to a domain other
 * than the root: charge, allocate, record the owner (or give the charge
 * back if no page came). memcg: the domain alloc_pages read
 * (memcg_kmem_task_domain).
 *
 * Compiled in twins: plain, with no tracepoint site on the way, and
 * traced (traced true), with the events' sites; alloc_pages picks one at
 * the site of the kmem static key, which it passes anyway
 * (memcg_kmem_path), so that tracepoints compiled in cost the plain path
 * nothing.
 */
static __attribute__((always_inline)) inline struct page *
__alloc_pages_accounted(gfp_t gfp, unsigned int order, struct task *task,
			struct mem_cgroup *memcg, bool traced)
{
	enum memcg_kmem_charge how;
	struct mem_cgroup *handle;
	unsigned long flags;
	struct page *page;

	how = __memcg_kmem_new_page(gfp, &handle, order, task, memcg, &flags,
				    traced);
	if (likely(how >= MEMCG_KMEM_FROM_STOCK)) {
		/* The common cases: this CPU's stock held the charge, or
		 * the counters took it exactly, and interrupts are still
		 * off. One page comes from this CPU's list in the same
		 * section: the stock and the list are the same kind of
		 * thing, a per-CPU cache in front of something shared, and
		 * one section costs half of two. (Unless fault injection is
		 * on - it fails a page after its charge, which is
		 * __alloc_pages' to show - or memory is near the reserve.)
		 * Anything else is __alloc_pages' as usual. */
		bool stock = how == MEMCG_KMEM_FROM_STOCK;

		page = NULL;
		if (order == 0 && likely(!fail_page_on() &&
					 zone_watermark_ok(gfp, 0)))
			page = __pcp_alloc_page();
		local_irq_restore(flags);
		if (likely(page))
			prep_new_page(page, 0, gfp);
		else
			page = __alloc_pages(gfp, order);
		if (unlikely(!page)) {
			if (traced && stock)
				trace_memcg_kmem_stock_alloc(NULL, handle,
							     order, gfp);
			if (traced && !stock) {
				trace_memcg_kmem_commit(NULL, handle, order);
				trace_mm_page_alloc(NULL, order, gfp);
			}
			__memcg_kmem_cancel_page(handle, order);
			return NULL;
		}
		__memcg_kmem_commit_page(page, handle, order);
		/* A stock hit's four events share the one site below, passed
		 * on the way out (kernel/trace/trace_events.h); the
		 * counters' charge recorded its own, and the commit and the
		 * page share another. */
		if (traced && stock)
			trace_memcg_kmem_stock_alloc(page, handle, order, gfp);
		if (traced && !stock)
			trace_memcg_kmem_charged_alloc(page, handle, order,
						       gfp);
		return page;
	}
	if (how == MEMCG_KMEM_REFUSED)
		return NULL;  /* the domain is at its limit */
	/* Charged to the counters, or to nobody (handle NULL). */
	page = __alloc_pages(gfp, order);
	if (unlikely(!page)) {
		if (handle) {  /* the charge is given back */
			if (traced)
				trace_memcg_kmem_commit(NULL, handle, order);
			__memcg_kmem_cancel_page(handle, order);
		}
		if (traced)
			trace_mm_page_alloc(NULL, order, gfp);
		return NULL;
	}
	if (handle)
		__memcg_kmem_commit_page(page, handle, order);
	if (traced)
		trace_memcg_kmem_charged_alloc(page, handle, order, gfp);
	return page;
}

/* alloc_pages_accounted, alloc_page_accounted, alloc_pages_accounted_traced
 * - the instances of __alloc_pages_accounted: plain for any order, and
 * for one page - the common case (slab pages, page tables), where the
 * compiler, knowing the order, drops the arithmetic on it - and traced. */
static __attribute__((noinline)) struct page *
alloc_pages_accounted(gfp_t gfp, unsigned int order, struct task *task,
		      struct mem_cgroup *memcg)
{
	return __alloc_pages_accounted(gfp, order, task, memcg, false);
}

static __attribute__((noinline)) struct page *
alloc_page_accounted(gfp_t gfp, struct task *task, struct mem_cgroup *memcg)
{
	return __alloc_pages_accounted(gfp, 0, task, memcg, false);
}

static __attribute__((noinline)) struct page *
alloc_pages_accounted_traced(gfp_t gfp, unsigned int order, struct task *task,
			     struct mem_cgroup *memcg)
{
	return __alloc_pages_accounted(gfp, order, task, memcg, true);
}

/*
 * memcg_kmem_path - which path an allocation takes: one 5-byte site for
 * two keys (static_branch_choose). The NOP while no kmem limit is set
 * anywhere (SPEC 1) and no event is on: nothing is charged. A jump to the
 * plain accounted path once the kmem key is on; to the traced twin while
 * any event is on (tracepoints_on_key wins, kmem key or not: with the kmem
 * key off the traced twin finds nobody to charge, and says why).
 */
enum memcg_kmem_path { KMEM_PATH_NONE, KMEM_PATH_PLAIN, KMEM_PATH_TRACED };

static __attribute__((always_inline)) inline enum memcg_kmem_path
memcg_kmem_path(void)
{
#if defined(CONFIG_MEMCG_KMEM) && defined(CONFIG_TRACEPOINTS) && \
	defined(TALLY_KERNEL)
	return (enum memcg_kmem_path)static_branch_choose(
		&memcg_kmem_enabled_key, &tracepoints_on_key);
#else
	return memcg_kmem_enabled() ? KMEM_PATH_PLAIN : KMEM_PATH_NONE;
#endif
}

/* alloc_pages_charged - the allocation of a task whose domain may pay:
 * the root's is sent on first, unaccounted; then the twin. */
static __attribute__((always_inline)) inline struct page *
alloc_pages_charged(gfp_t gfp, unsigned int order, bool traced)
{
	struct task *task = current;
	struct mem_cgroup *memcg;

#ifdef TALLY_HOST
	if (!task)  /* host tests often run without a current task */
		return alloc_pages_raw(gfp, order);
#endif
	if (!(gfp & __GFP_KMEMCG))
		return alloc_pages_raw(gfp, order);
	memcg = memcg_kmem_task_domain(task);
	if (memcg == root_mem_cgroup)
		return alloc_pages_raw(gfp, order);
	if (traced)
		return alloc_pages_accounted_traced(gfp, order, task, memcg);
	return order ? alloc_pages_accounted(gfp, order, task, memcg)
		     : alloc_page_accounted(gfp, task, memcg);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	if (unlikely(order > MAX_ORDER))
		return NULL;
	/* A 5-byte NOP until the first kmem limit is set (SPEC 1) or an
	 * event is on; then what is not charged - no __GFP_KMEMCG, or a
	 * task of the root, the common case - is sent on before anything
	 * else. */
	switch (memcg_kmem_path()) {
	case KMEM_PATH_PLAIN:
		return alloc_pages_charged(gfp, order, false);
	case KMEM_PATH_TRACED:
		return alloc_pages_charged(gfp, order, true);
	default:
		return alloc_pages_raw(gfp, order);
	}
}

/*
 * The charged free: a checked block with PG_kmemcg is freed and its charge
 * given back, to this CPU's stock if the stock caches the block's domain
 * and has room (__memcg_kmem_uncharge_page), else to the counters
 * (memcg_kmem_uncharge_page_declined). The block is freed before its charge
 * is given back: for a moment the domain pays for a page it no longer
 * has, never the reverse.
 *
 * Compiled twice, as the allocation is (alloc_pages_accounted): plain,
 * with no tracepoint site on the way at all, and traced
 * (free_charged_pages_traced), with the events' sites. free_accounted_pages
 * picks the twin at a site it passes anyway (charged_free_extra).
 *
 * free_charged_page - one page, the common case: its charge goes to this
 * CPU's stock and the page to this CPU's list in one interrupts-off
 * section (the stock and the list are per-CPU caches alike: one section
 * costs half of two). Written so that only the interrupt flags are kept
 * across the list's rare calls (a batch drained, a page of another
 * node): the poisoning, a call too, comes first, the domain is read in
 * the section, and a charge the stock declined is finished out of line
 * (free_charged_page_declined), the section still open.
 */
static __attribute__((always_inline)) inline void
__free_charged_page_declined(struct page *page, struct mem_cgroup *memcg,
			     enum stock_return ret, unsigned long flags,
			     bool traced)
{
	free_reset(page);
	__pcp_free_page(page);
	local_irq_restore(flags);
	memcg_kmem_uncharge_page_declined(page, memcg, 0, ret, traced);
}

static __attribute__((noinline)) void
free_charged_page_declined(struct page *page, struct mem_cgroup *memcg,
			   enum stock_return ret, unsigned long flags)
{
	__free_charged_page_declined(page, memcg, ret, flags, false);
}

static __attribute__((always_inline)) inline void
free_charged_page(struct page *page, bool traced)
{
	struct mem_cgroup *memcg;
	enum stock_return ret;
	unsigned long flags;

	free_poison(page, 0);
	flags = local_irq_save();
	memcg = memcg_kmem_page_domain(page);
	ret = __memcg_kmem_uncharge_page(memcg, 1);
	if (unlikely(ret != STOCK_RETURNED)) {
		if (traced)
			__free_charged_page_declined(page, memcg, ret, flags,
						     true);
		else
			free_charged_page_declined(page, memcg, ret, flags);
		return;
	}
	free_reset(page);
	__pcp_free_page(page);
	local_irq_restore(flags);
	if (traced)
		trace_memcg_kmem_stock_free(page, memcg, 0);
}

/* free_charged_block - any order: the charge to the stock, or not, in a
 * section of its own, then the block to the buddy allocator
 * (__free_pages: a tail call when the stock took the charge). */
static __attribute__((always_inline)) inline void
free_charged_block(struct page *page, unsigned int order, bool traced)
{
	struct mem_cgroup *memcg;
	enum stock_return ret;
	unsigned long flags;

	flags = local_irq_save();
	memcg = memcg_kmem_page_domain(page);
	ret = __memcg_kmem_uncharge_page(memcg, 1u << order);
	local_irq_restore(flags);
	if (likely(ret == STOCK_RETURNED)) {
		if (traced)
			trace_memcg_kmem_stock_free(page, memcg, (int)order);
		__free_pages(page, order);
		return;
	}
	__free_pages(page, order);
	memcg_kmem_uncharge_page_declined(page, memcg, (int)order, ret, traced);
}

/* free_charged_pages_plain, free_charged_pages_traced - the instances
 * out of line (tail calls), so that free_accounted_pages' common case,
 * an uncharged page, keeps its small stack frame: plain for any order,
 * and traced. (Plain for one page, the common case, is inline in
 * free_accounted_pages, where the compiler drops the arithmetic on the
 * order.) The traced twin also makes the debug checks: what a
 * charged free does while an event is on or
 * /proc/sys/debug_check_on_free is 1. */
static __attribute__((noinline)) void
free_charged_pages_plain(struct page *page, unsigned int order)
{
	free_charged_block(page, order, false);
}

static __attribute__((noinline)) void
free_charged_pages_traced(struct page *page, unsigned int order)
{
	if (debug_check_on_free())
		debug_check_free_block("free_accounted_pages", page, order);
	if (order == 0)
		free_charged_page(page, true);
	else
		free_charged_block(page, order, true);
}

/*
 * charged_free_extra - has a charged free more to do than the plain
 * twin does: free-time checks, or events to record? One 5-byte site for
 * both keys (static_branch_unlikely_any): the site of the debug checks,
 * that every free passes anyway, also sends a charged free to its traced
 * twin, so that the tracepoints compiled in cost the plain free nothing.
 */
static __attribute__((always_inline)) inline bool charged_free_extra(void)
{
#if defined(CONFIG_TRACEPOINTS) && defined(TALLY_KERNEL)
	return static_branch_unlikely_any(&debug_check_on_free_key,
					  &tracepoints_on_key);
#else
	return debug_check_on_free();
#endif
}

void free_accounted_pages(struct page *page, unsigned int order)
{
	if (!page)
		return;
	free_page_is_descriptor("free_accounted_pages", page, order);
	/* PG_kmemcg tested first, and the other flags checked in each
	 * branch: the flags are read once, and not kept for a second
	 * look. A page nobody was charged for (a task of the root's, the
	 * common case while few domains have a kmem limit) falls through;
	 * a charged one pays one jump more. */
	if (unlikely(page->flags & PG_kmemcg)) {
		/* The debug checks are the traced twin's (below). */
		free_page_flags_bad("free_accounted_pages", page, order,
				    PAGE_FLAGS_CHECK & ~PG_kmemcg);
		/* The twin: inline for one page, the common case, in
		 * this function's frame; else a tail call. */
		if (charged_free_extra())
			free_charged_pages_traced(page, order);
		else if (order == 0)
			free_charged_page(page, false);
		else
			free_charged_pages_plain(page, order);
		return;
	}
	free_page_flags_check("free_accounted_pages", page, order,
			      PAGE_FLAGS_CHECK);
	__free_pages(page, order);
}
