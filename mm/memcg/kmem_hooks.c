// SPDX-License-Identifier: MIT
/*
 * mm/memcg/kmem_hooks.c - the out-of-line parts of the page allocator's
 * kernel-memory hooks (Linux 2012: __memcg_kmem_newpage_charge,
 * __memcg_kmem_commit_charge), and the static key that turns them on. The
 * inline parts, and what calls what: mm/memcg/kmem_hooks.h; the whole
 * call tree: mm/memcg/memcg_charge.c.
 *
 * The common case - a domain whose kernel charge this CPU's stock holds -
 * never gets here: memcg_kmem_new_page serves it inline. What comes here
 * is the rest: the accounted test, and a charge of the counters, with the
 * references the pages will hold taken first.
 */
#include "mm/memcg/kmem_hooks.h"

#include <errno.h>

#include "kernel/task/task.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"

/* Off (count 0) until the first domain gets a kmem limit. */
DEFINE_STATIC_KEY_FALSE(memcg_kmem_enabled_key);

/*
 * charged_domain - the domain the current task's kernel allocations are
 * charged to, before the accounted test: its active domain if it has one,
 * else its own - except for a system task. NULL: nobody. Interrupts off.
 */
static inline struct mem_cgroup *charged_domain(struct task *task)
{
	struct mem_cgroup *memcg = READ_ONCE(task->active_memcg);

	if (memcg)
		return memcg;
	if (task->flags & TASK_SYSTEM)
		return NULL;
	return READ_ONCE(task->memcg);
}

/*
 * not_charged - SPEC 1's exceptions that need no domain: __GFP_NOFAIL
 * allocations (they may not be refused), interrupt context (the
 * interrupted task is not the one asking), no task yet (early boot).
 */
static inline bool not_charged(gfp_t gfp, struct task *task)
{
	return (gfp & __GFP_NOFAIL) || in_interrupt() || !task;
}

struct mem_cgroup *memcg_kmem_current_domain(gfp_t gfp)
{
	struct task *task = current;
	struct mem_cgroup *memcg;
	unsigned long flags;

	if (not_charged(gfp, task))
		return NULL;
	/* Interrupts off from reading the domain to taking the reference:
	 * see the top of this file. */
	flags = local_irq_save();
	memcg = charged_domain(task);
	if (!memcg || !memcg_kmem_is_accounted(memcg)) {
		local_irq_restore(flags);
		return NULL;
	}
	mem_cgroup_get(memcg);
	local_irq_restore(flags);
	return memcg;
}

int __memcg_kmem_new_page_slow(gfp_t gfp, int order, struct mem_cgroup *memcg,
			       unsigned long flags)
{
	unsigned int nr_pages = 1u << order;

	/* Neither the root nor a domain with no kmem limit on it or
	 * above it is charged. */
	if (!memcg || !memcg_kmem_is_accounted(memcg)) {
		local_irq_restore(flags);
		return 1;  /* nobody pays: not charged */
	}
	/* The references the pages will hold, taken first: they also keep
	 * the domain alive while the counters are charged. */
	mem_cgroup_get_many(memcg, nr_pages);
	local_irq_restore(flags);
	/* 0, or -ENOMEM (over a limit: the allocation fails; the
	 * references are dropped). */
	return memcg_charge_kmem_counters(memcg, gfp, nr_pages);
}

void memcg_kmem_page_no_domain(struct page *page)
{
	panic("memcg_kmem_uncharge_page: pfn 0x%lx has PG_kmemcg but no "
	      "domain", (unsigned long)page_to_pfn(page));
}

void __memcg_kmem_cancel_page(struct mem_cgroup *handle, int order)
{
	memcg_uncharge_kmem(handle, 1u << order);
}

void __memcg_kmem_uncharge_page_slow(struct mem_cgroup *memcg,
				     unsigned long nr_pages, struct page *page,
				     enum stock_return why)
{
	/* The site takes this function's own arguments, in the registers
	 * they came in, and the counters' call its first two: nothing is
	 * moved for the tracepoint on the way past (nr_pages is a long for
	 * that: the site's registers are 64-bit). */
	trace_memcg_kmem_uncharge_slow(memcg, nr_pages, page, (int)why);
	memcg_uncharge_kmem_counters(memcg, (unsigned int)nr_pages);
}
