/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/kmem_hooks.h - the page allocator's hooks of kernel-memory
 * accounting (SPEC 1: memcg_kmem_new_page, memcg_kmem_commit_page, and the
 * third, memcg_kmem_uncharge_page, that SPEC 1 calls memcg_kmem_free_page;
 * Linux 2012: memcg_kmem_newpage_charge, memcg_kmem_commit_charge,
 * memcg_kmem_uncharge_pages), and the active domain that they consult.
 *
 * alloc_pages() tests the static key memcg_kmem_enabled_key and
 * __GFP_KMEMCG; only then does it call, in this order:
 *
 *   struct mem_cgroup *handle;
 *   if (!memcg_kmem_new_page(gfp, &handle, order))
 *           return NULL;                 // the domain is over its limit
 *   page = <take 2^order pages from the buddy allocator>;
 *   memcg_kmem_commit_page(page, handle, order);  // page may be NULL
 *
 * and free_accounted_pages() gives a page with PG_kmemcg back with its
 * charge: the hook memcg_kmem_uncharge_page in two halves, one inside the
 * allocator's interrupts-off section (__memcg_kmem_uncharge_page, below)
 * and one after (memcg_kmem_uncharge_page_declined). In the kernel the
 * allocator does this inline, on the common path, in plain and traced
 * twins (mm/buddy.c). The whole call tree, down to the counters:
 * mm/memcg/memcg_charge.c.
 *
 * The handle carries the charged domain from new_page to commit_page: the
 * task may be moved to another domain in between, and the page must belong
 * to the domain that was charged.
 *
 * With the key off (no kmem limit anywhere) the only trace of all this in
 * alloc_pages is a 5-byte NOP.
 */
#ifndef MM_KMEM_HOOKS_H
#define MM_KMEM_HOOKS_H

#include "kernel/base/static_key.h"
#include "kernel/task/task.h"
#include "kernel/trace/trace_events.h"
#include "mm/gfp.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"
#include "mm/page.h"

extern struct static_key memcg_kmem_enabled_key;

static inline bool memcg_kmem_enabled(void)
{
#ifdef CONFIG_MEMCG_KMEM
	return static_branch_unlikely(&memcg_kmem_enabled_key);
#else
	return false;
#endif
}

/*
 * set_active_memcg - until it is set back, the current task's kernel
 * allocations are charged to memcg (NULL: to its own domain again), even
 * if it is a system task. Returns the previous one, to restore. The
 * caller keeps a reference on memcg meanwhile. Used by `run` (the shell
 * allocates a new task's stack and struct on its behalf), the benchmarks
 * and the in-kernel tests. Linux has the same concept (set_active_memcg,
 * 5.10).
 */
static inline struct mem_cgroup *set_active_memcg(struct mem_cgroup *memcg)
{
	struct task *task = current;
	struct mem_cgroup *old = task->active_memcg;

	WRITE_ONCE(task->active_memcg, memcg);
	return old;
}

/* memcg_kmem_current_domain - the domain that pays for a kernel allocation
 * by the current task, with a reference (mem_cgroup_put it); NULL if
 * nobody does: __GFP_NOFAIL, interrupt context, no task, system tasks (with
 * no active domain), the root, a domain without a kmem limit on or above
 * it. Used by the slab's child caches (mm/memcg/memcg_slab.c); the page
 * hook makes the same decision without taking a reference. */
struct mem_cgroup *memcg_kmem_current_domain(gfp_t gfp);

/* __memcg_kmem_new_page_slow - the charge the stock could not serve,
 * entered with interrupts off (flags: as saved). Returns 0 if charged, 1
 * if memcg is not accounted, -ENOMEM if refused. */
int __memcg_kmem_new_page_slow(gfp_t gfp, int order, struct mem_cgroup *memcg,
			       unsigned long flags);
void __memcg_kmem_cancel_page(struct mem_cgroup *handle, int order);

/*
 * memcg_kmem_task_domain - the domain a kernel allocation by task would
 * be charged to: its active domain, else its own. Read by alloc_pages
 * before anything else, with no interrupt save, to send the root's
 * allocations (nobody pays) away at once: the domain is only compared,
 * never dereferenced, until a stock that holds charge for it says it is
 * alive (__memcg_kmem_new_page).
 */
static inline struct mem_cgroup *memcg_kmem_task_domain(struct task *task)
{
	struct mem_cgroup *memcg = READ_ONCE(task->active_memcg);

	if (!memcg)
		memcg = READ_ONCE(task->memcg);
	return memcg;
}

/* What memcg_kmem_new_page did. */
enum memcg_kmem_charge {
	MEMCG_KMEM_REFUSED = 0,  /* over a limit: the allocation must fail */
	MEMCG_KMEM_CHARGED,      /* charged to the counters - or to nobody,
				  * if *handle is NULL */
	MEMCG_KMEM_FROM_STOCK,   /* served by this CPU's stock: the common
				  * case, whose events the caller records */
	MEMCG_KMEM_CHARGED_IRQS_OFF,  /* charged to the counters, exactly,
				       * with interrupts still off */
};

/*
 * memcg_kmem_new_page - charge 2^order pages to the current task's domain
 * (or its active one), before they are allocated. alloc_pages calls it
 * only for __GFP_KMEMCG, with the static key on, and not for a task whose
 * domain is the root (memcg_kmem_task_domain).
 * @gfp:    the allocation's flags
 * @handle: set to the charged domain, or NULL if nothing was charged
 * @order:  the allocation's order
 *
 * Inline, the common case: interrupts off, take the pages from this
 * CPU's stock. Anything else reads the domain again and goes to
 * __memcg_kmem_new_page_slow, with interrupts still off: interrupts off
 * is what keeps the domain alive meanwhile - a task is moved to another
 * domain only after every CPU has taken an IPI (mem_cgroup_move_task),
 * that is, has left such a section; once taken, the charge holds it (one
 * reference per page).
 *
 * A stock hit records no event here: its four (memcg_kmem_domain,
 * memcg_stock_consume, memcg_kmem_commit, mm_page_alloc) share one site
 * at the end of alloc_pages_accounted (trace_memcg_kmem_stock_alloc),
 * so that the hit passes one NOP, not four. Every other outcome records
 * its events here, as it happens.
 *
 * __memcg_kmem_new_page takes the current task, and the domain it read
 * (memcg_kmem_task_domain), from a caller that has them already
 * (alloc_pages), and on a stock hit, or an exact charge of the counters
 * (MEMCG_KMEM_CHARGED_IRQS_OFF), returns with interrupts still off
 * (*irq_flags: what to restore): alloc_pages_accounted takes the page
 * from this CPU's list in the same section. memcg_kmem_new_page, the hook
 * as SPEC 1 names it, restores them at once. The domain was read before
 * the section: a stock that holds charge for it holds references on it,
 * so a hit is safe; on a miss it is read again, in the section, before
 * it is used.
 *
 * traced: the twin that records its events (alloc_pages picks it while
 * any event is on); the plain one passes no tracepoint site at all.
 *
 * Returns MEMCG_KMEM_REFUSED (0) if the charge was refused.
 */
static __attribute__((always_inline)) inline enum memcg_kmem_charge
__memcg_kmem_new_page(gfp_t gfp, struct mem_cgroup **handle, int order,
		      struct task *task, struct mem_cgroup *memcg,
		      unsigned long *irq_flags, bool traced)
{
	struct memcg_stock_pcp *stock;
	unsigned long flags;
	int ret;

	*handle = NULL;
	/* SPEC 1's exceptions: __GFP_NOFAIL (may not be refused) and
	 * interrupt context (the interrupted task is not the one asking).
	 * System tasks need no test: they live in the root, which
	 * alloc_pages has sent away (mem_cgroup_move_task refuses to move
	 * one elsewhere). */
	if (unlikely((gfp & __GFP_NOFAIL) || in_interrupt())) {
		if (traced)
			trace_memcg_kmem_domain(gfp, order, NULL);  /* nobody */
		return MEMCG_KMEM_CHARGED;
	}
	flags = local_irq_save();
	/* A stock holds kernel charge only for an accounted domain (a
	 * domain that stops being accounted has its stocks drained), so a
	 * hit needs no accounted test; the slow path makes it. */
	stock = this_cpu_stock();
	if (likely(__stock_take(stock, memcg, 1u << order, true))) {
		*irq_flags = flags;  /* the caller restores them */
		*handle = memcg;
		return MEMCG_KMEM_FROM_STOCK;
	}
	memcg = memcg_kmem_task_domain(task);  /* again, in the section */
	/* Who pays (the recorder tests whether memcg is accounted, as the
	 * slow path does next), and the miss: one site for both. */
	if (traced)
		trace_memcg_kmem_stock_miss(gfp, order, memcg, stock);
	/* No stock to fill (stocks off, or not for kernel charge): the
	 * exact charge of an accounted domain, inline. It is lock-free and
	 * calls nothing, so interrupts stay off, and the page comes from
	 * this CPU's list in the same section, as on a stock hit
	 * (MEMCG_KMEM_CHARGED_IRQS_OFF). A refusal turns them back on
	 * first: it may drain and reclaim (charge_kmem_pages_refused). */
	if (likely(memcg && memcg_kmem_is_accounted(memcg) &&
		   !memcg_stock_takes_kmem(1u << order))) {
		int64_t bytes = (int64_t)PAGE_SIZE << order;
		struct res_counter *refused;

		/* The references the pages will hold, first: they keep the
		 * domain alive while the counters are charged. */
		mem_cgroup_get_many(memcg, 1u << order);
		refused = __res_counter_try_charge_two(&memcg->res,
						       &memcg->kmem, bytes);
		if (likely(!refused)) {
			if (traced)
				trace_res_counter_charge_two(&memcg->res,
							     &memcg->kmem,
							     bytes);
			*handle = memcg;
			*irq_flags = flags;  /* the caller restores them */
			return MEMCG_KMEM_CHARGED_IRQS_OFF;
		}
		local_irq_restore(flags);
		if (charge_kmem_pages_refused(memcg, gfp, bytes, refused))
			return MEMCG_KMEM_REFUSED;
		*handle = memcg;
		return MEMCG_KMEM_CHARGED;
	}
	/* A batch for the stock (once per CHARGE_BATCH pages), or a domain
	 * nobody charges: the slow path, out of line, with its own
	 * tracepoint sites. */
	ret = __memcg_kmem_new_page_slow(gfp, order, memcg, flags);
	if (ret < 0)
		return MEMCG_KMEM_REFUSED;
	if (ret == 0)
		*handle = memcg;
	return MEMCG_KMEM_CHARGED;
}

/* memcg_kmem_page_domain - the domain a page with PG_kmemcg is charged
 * to; a page with the flag and no domain is a bug: panic
 * (memcg_kmem_page_no_domain, out of line: the free path keeps nothing
 * for the panic's message). */
_Noreturn void memcg_kmem_page_no_domain(struct page *page);

static inline struct mem_cgroup *memcg_kmem_page_domain(struct page *page)
{
	struct mem_cgroup *memcg = page->memcg;

	if (unlikely(!memcg))
		memcg_kmem_page_no_domain(page);
	return memcg;
}

static inline enum memcg_kmem_charge
memcg_kmem_new_page(gfp_t gfp, struct mem_cgroup **handle, int order)
{
	struct task *task = current;
	unsigned long flags;
	enum memcg_kmem_charge how;

	how = __memcg_kmem_new_page(gfp, handle, order, task,
				    memcg_kmem_task_domain(task), &flags, true);

	if (how >= MEMCG_KMEM_FROM_STOCK)  /* interrupts still off */
		local_irq_restore(flags);
	return how;
}

/*
 * __memcg_kmem_commit_page - the page now owns the charge (and its
 * references): record the domain in it. No page (the allocation failed):
 * give the charge back. memcg_kmem_commit_page records the event too.
 */
static inline void __memcg_kmem_commit_page(struct page *page,
					    struct mem_cgroup *handle,
					    int order)
{
	if (unlikely(!page)) {
		__memcg_kmem_cancel_page(handle, order);
		return;
	}
	page->memcg = handle;
	page->flags |= PG_kmemcg;
}

static inline void memcg_kmem_commit_page(struct page *page,
					  struct mem_cgroup *handle, int order)
{
	if (!handle)
		return;
	trace_memcg_kmem_commit(page, handle, order);
	__memcg_kmem_commit_page(page, handle, order);
}

/* __memcg_kmem_uncharge_page_slow - the charge of a freed page that this
 * CPU's stock did not take back (why: not cached, or full): recorded, and
 * given back to the counters. */
void __memcg_kmem_uncharge_page_slow(struct mem_cgroup *memcg,
				     unsigned long nr_pages, struct page *page,
				     enum stock_return why);

/*
 * The third hook, memcg_kmem_uncharge_page (SPEC 1's memcg_kmem_free_page),
 * in the two halves free_accounted_pages calls for a page with PG_kmemcg
 * (mm/buddy.c):
 *
 * __memcg_kmem_uncharge_page - with interrupts off, in the same section
 * as the page's return to this CPU's list: the charge goes back to this
 * CPU's stock if the stock caches the page's domain and has room (nothing
 * shared is written). Returns what the stock did.
 */
static inline enum stock_return
__memcg_kmem_uncharge_page(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	return __stock_return_kmem(this_cpu_stock(), memcg, nr_pages);
}

/*
 * memcg_kmem_uncharge_page_declined - the other half, once the page is
 * free: a charge the stock declined (why) goes to the counters. Only the
 * traced twin (traced: see mm/buddy.c, free_charged_page) records the
 * uncharge and why, by way of __memcg_kmem_uncharge_page_slow; the plain
 * twin has no site at all (the stock's return is recorded by the traced
 * caller: trace_memcg_kmem_stock_free). PG_kmemcg and page->memcg were
 * reset by the allocator with the rest of the page's state
 * (free_reset): the one place they are cleared. The page is free by now:
 * page is only named (its pfn), never read.
 */
static __attribute__((always_inline)) inline void
memcg_kmem_uncharge_page_declined(struct page *page, struct mem_cgroup *memcg,
				  int order, enum stock_return why,
				  bool traced)
{
	if (traced)
		__memcg_kmem_uncharge_page_slow(memcg, 1u << order, page, why);
	else
		memcg_uncharge_kmem_counters(memcg, 1u << order);
}

#endif
