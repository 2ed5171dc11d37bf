// SPDX-License-Identifier: MIT
/*
 * mm/memcg/kmem_hooks.c - the out-of-line parts of the page allocator's
 * kernel-memory hooks (Linux 2012: __memcg_kmem_newpage_charge,
 * __memcg_kmem_commit_charge), and the static key that turns them on.
 * The inline parts: mm/memcg/kmem_hooks.h; the whole call tree:
 * mm/memcg/memcg_charge.c.
 *
 * The common case - a domain whose kernel charge this CPU's stock holds -
 * never gets here (__memcg_kmem_charge_local). What comes here is the
 * rest: who pays, with references, and a charge of the counters.
 */
#include "mm/memcg/kmem_hooks.h"

#include <errno.h>

#include "kernel/task/task.h"
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

struct kmem_charge memcg_kmem_charge_later(struct kmem_charge charge, gfp_t gfp,
				     unsigned int order)
{
	/* Refused: the references are dropped already. */
	if (memcg_charge_kmem_counters(charge.memcg, gfp, 1u << order))
		return (struct kmem_charge){NULL, KMEM_CHARGE_REFUSED};
	return (struct kmem_charge){charge.memcg, KMEM_CHARGE_COUNTERS};
}

void memcg_kmem_cancel_charge(struct kmem_charge charge, unsigned int order)
{
	if (charge.memcg)
		memcg_uncharge_kmem(charge.memcg, 1u << order);
}

bool memcg_kmem_new_page(gfp_t gfp, struct mem_cgroup **handle, int order)
{
	struct mem_cgroup *memcg = memcg_kmem_payer(current, gfp);
	struct kmem_charge charge = {NULL, KMEM_CHARGE_NOBODY};
	unsigned long flags;

	/* memcg is only compared here: __memcg_kmem_charge_local makes sure
	 * it is still the payer before it dereferences it. */
	if (memcg != root_mem_cgroup) {
		flags = local_irq_save();
		charge = __memcg_kmem_charge_local(memcg, (unsigned int)order,
						   gfp);
		local_irq_restore(flags);
		if (charge.from == KMEM_CHARGE_LATER)
			charge = memcg_kmem_charge_later(charge, gfp,
						   (unsigned int)order);
	}
	*handle = charge.memcg;
	return charge.from != KMEM_CHARGE_REFUSED;
}

void memcg_kmem_commit_page(struct page *page, struct mem_cgroup *handle,
			    int order)
{
	struct kmem_charge charge = {handle, KMEM_CHARGE_COUNTERS};

	if (!handle)
		return;
	trace_memcg_kmem_commit(page, handle, order);
	if (page)
		memcg_kmem_commit_charge(page, charge);
	else
		memcg_kmem_cancel_charge(charge, (unsigned int)order);
}

void memcg_kmem_uncharge_page(struct mem_cgroup *memcg,
			      unsigned long nr_pages, struct page *page,
			      enum stock_return why)
{
	trace_memcg_kmem_uncharge_slow(memcg, nr_pages, page, (int)why);
	memcg_uncharge_kmem_counters(memcg, (unsigned int)nr_pages);
}
