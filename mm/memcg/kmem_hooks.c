// SPDX-License-Identifier: MIT
/*
 * mm/memcg/kmem_hooks.c - the page allocator's kernel-memory hooks (Linux
 * 2012: __memcg_kmem_newpage_charge, __memcg_kmem_commit_charge,
 * __memcg_kmem_uncharge_pages), and the static key that turns them on.
 * alloc_pages (mm/page_alloc.c) calls the charge, allocates, then
 * commits; free_accounted_pages calls the uncharge, then frees. The
 * whole call tree: mm/memcg/memcg_charge.c.
 *
 * The common case - a domain whose kernel charge this CPU's stock holds -
 * is one short interrupts-off section in the stock's code
 * (consume_stock, stock_return_kmem). The rest - who pays, read again
 * with references, and a charge of the counters - is
 * charge_pages_counters below.
 */
#include "mm/memcg/kmem_hooks.h"

#include "kernel/task/task.h"
#include "mm/memcg/memcg_trace.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"

/* Off (count 0) until the first domain gets a kmem limit. */
DEFINE_STATIC_KEY_FALSE(memcg_kmem_enabled_key);

struct mem_cgroup *memcg_kmem_get_payer(gfp_t gfp, unsigned int nr_refs)
{
	struct mem_cgroup *memcg;
	unsigned long flags;

	/* No task yet: early boot. */
	if (!current)
		return NULL;
	/* Interrupts off from reading the domain to taking the references:
	 * a task is moved to another domain only after every CPU has left
	 * such a section (mem_cgroup_move_task). */
	flags = local_irq_save();
	memcg = memcg_kmem_payer(current, gfp);
	if (memcg && memcg_kmem_is_accounted(memcg))
		mem_cgroup_get_many(memcg, nr_refs);
	else
		memcg = NULL;  /* the root, or no kmem limit: nobody pays */
	local_irq_restore(flags);
	return memcg;
}

/*
 * charge_pages_counters - the charge this CPU's stock could not serve.
 * memcg has only been compared so far; it is read only once it is known
 * to be alive: it is if it is still the task's payer, with interrupts off
 * (a task moves to another domain only after every CPU has left such a
 * section; memcg_kmem_payer_is). Then the references the pages will hold
 * are taken, and keep it alive from here on. Without a stock for kernel
 * charge the counters are charged exactly, in the same section (they are
 * lock-free); else, interrupts on, through memcg_charge_kmem_counters: a
 * batch for the stock, draining, reclaim.
 */
static __noinline struct kmem_charge
charge_pages_counters(gfp_t gfp, unsigned int order, struct mem_cgroup *memcg)
{
	unsigned int nr_pages = 1u << order;
	int64_t bytes = (int64_t)PAGE_SIZE << order;
	unsigned long flags;
	bool charged;

	flags = local_irq_save();
#ifdef TALLY_HOST
	if (!memcg) {
		local_irq_restore(flags);
		return (struct kmem_charge){NULL, KMEM_CHARGE_NOBODY};
	}
#endif
	if (!memcg_kmem_payer_is(current, memcg) ||
	    !memcg_kmem_is_accounted(memcg)) {
		local_irq_restore(flags);
		return (struct kmem_charge){NULL, KMEM_CHARGE_NOBODY};
	}
	mem_cgroup_get_many(memcg, nr_pages);
	charged = !memcg_stock_takes_kmem(nr_pages) &&
		  !__res_counter_try_charge_two(&memcg->res, &memcg->kmem,
						bytes);
	local_irq_restore(flags);
	if (charged) {
		trace_res_counter_charge_two(&memcg->res, &memcg->kmem, bytes);
		return (struct kmem_charge){memcg, KMEM_CHARGE_COUNTERS};
	}
	/* Refused: the references are dropped already. */
	if (memcg_charge_kmem_counters(memcg, gfp, nr_pages))
		return (struct kmem_charge){NULL, KMEM_CHARGE_REFUSED};
	return (struct kmem_charge){memcg, KMEM_CHARGE_COUNTERS};
}

struct kmem_charge memcg_kmem_charge_pages(gfp_t gfp, unsigned int order,
					   struct mem_cgroup *memcg)
{
	trace_memcg_kmem_domain(gfp, (int)order, memcg);
	/* The stock holds references on its domain: a hit needs no other
	 * test. */
	if (likely(consume_stock(memcg, 1u << order, true)))
		return (struct kmem_charge){memcg, KMEM_CHARGE_STOCK};
	return charge_pages_counters(gfp, order, memcg);
}

void memcg_kmem_cancel_charge(struct mem_cgroup *memcg, unsigned int order)
{
	if (memcg)
		memcg_uncharge_kmem(memcg, 1u << order);
}

void memcg_kmem_uncharge_pages(struct page *page, unsigned int order)
{
	struct mem_cgroup *memcg = page->memcg;

	trace_memcg_kmem_uncharge(page, memcg, (int)order);
	memcg_uncharge_kmem(memcg, 1u << order);
}

bool memcg_kmem_new_page(gfp_t gfp, struct mem_cgroup **handle, int order)
{
	struct mem_cgroup *memcg = memcg_kmem_payer(current, gfp);
	struct kmem_charge charge = {NULL, KMEM_CHARGE_NOBODY};

	if (memcg != root_mem_cgroup)
		charge = memcg_kmem_charge_pages(gfp, (unsigned int)order,
						 memcg);
	*handle = charge.memcg;
	return charge.from != KMEM_CHARGE_REFUSED;
}

void memcg_kmem_commit_page(struct page *page, struct mem_cgroup *handle,
			    int order)
{
	if (!handle)
		return;
	trace_memcg_kmem_commit(page, handle, order);
	if (page)
		memcg_kmem_commit_charge(page, handle);
	else
		memcg_kmem_cancel_charge(handle, (unsigned int)order);
}
