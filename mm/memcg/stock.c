// SPDX-License-Identifier: MIT
/*
 * mm/memcg/stock.c - the per-CPU charge stock: charge taken from the
 * counters a batch at a time and handed out page by page, so that most
 * charges and uncharges write only this CPU's data (Linux 2012:
 * consume_stock, refill_stock, drain_stock, drain_all_stock in
 * mm/memcontrol.c). Where it sits in the charge path: the map in
 * mm/memcg/memcg_charge.c.
 *
 * What keeps the domain a stock names (stock->cached) alive, reader by
 * reader:
 *
 *  - The stock's own CPU (consume, refill, return, drain) works with
 *    interrupts off. Kernel charge in the stock holds one reference per
 *    page. For the rest, rmdir (mem_cgroup_destroy) marks the domain
 *    dying, then drains every CPU's stock by IPI, and only then drops the
 *    tree's reference; refill_stock checks dying with interrupts off, so a
 *    drained CPU never stocks the domain again. Hence no stock names a
 *    domain after its drain, and the domain outlives its drain.
 *
 *  - Another CPU that only compares stock->cached with a domain it holds
 *    itself (memcg_stock_pages, the census of memory.stat and check)
 *    never dereferences it: no rule needed.
 *
 *  - Another CPU that dereferences stock->cached - walks its parent chain
 *    (memcg_stock_pages_subtree, stock_holds) - keeps its own interrupts
 *    off from reading the pointer to the end of the walk. The drain IPI
 *    of rmdir, which goes to every CPU (drain_all_stock_removed), cannot
 *    complete on that CPU meanwhile, so the domain (and the ancestors it
 *    holds references on) cannot be freed under the walk.
 */
#include "mm/memcg/stock.h"

#include "mm/memcg/memcg_trace.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/obj_owner.h"
#include "mm/page.h"

DEFINE_STATIC_KEY_FALSE(memcg_stock_off_key);
bool memcg_stock_kmem = true;
unsigned int stock_kmem_high = STOCK_KMEM_HIGH;

/*
 * uncharge_counters - give back what a stock held: kmem first, then res
 * (res >= kmem at every moment), then the kernel pages' references, the
 * last touch of the domain (the last reference frees a dying one).
 */
static void uncharge_counters(struct mem_cgroup *memcg, unsigned int nr_pages,
			      unsigned int nr_kmem)
{
	if (nr_kmem)
		res_counter_uncharge(&memcg->kmem,
				     (int64_t)nr_kmem * PAGE_SIZE);
	if (nr_pages + nr_kmem)
		res_counter_uncharge(&memcg->res,
				     (int64_t)(nr_pages + nr_kmem) * PAGE_SIZE);
	if (nr_kmem)
		mem_cgroup_put_many(memcg, nr_kmem);
}

/*
 * drain_stock - give the stock's charge back to its domain's counters and
 * forget the domain. Interrupts off, on the stock's own CPU.
 */
static void drain_stock(struct memcg_stock_pcp *stock)
{
	struct mem_cgroup *old = stock->cached;
	unsigned int nr_pages = stock->nr_pages, nr_kmem = stock->nr_kmem;

	stock->cached = NULL;
	stock->nr_pages = 0;
	stock->nr_kmem = 0;
	if (old)
		uncharge_counters(old, nr_pages, nr_kmem);
}

void refill_stock(struct mem_cgroup *memcg, unsigned int nr_pages, bool kmem)
{
	struct memcg_stock_pcp *stock;
	unsigned long flags;

	flags = local_irq_save();
	/* Checked with interrupts off: mem_cgroup_destroy sets dying, then
	 * drains every CPU by IPI, which waits for this section to end. */
	if (unlikely(__atomic_load_n(&memcg->dying, __ATOMIC_ACQUIRE))) {
		local_irq_restore(flags);
		uncharge_counters(memcg, kmem ? 0 : nr_pages,
				  kmem ? nr_pages : 0);
		return;
	}
	stock = this_cpu_stock();
	if (stock->cached != memcg) {  /* another domain's: give it back */
		trace_memcg_stock_drain_switch(stock->cached, stock->nr_pages +
							      stock->nr_kmem);
		drain_stock(stock);
		stock->cached = memcg;
	}
	if (kmem)
		stock->nr_kmem += nr_pages;
	else
		stock->nr_pages += nr_pages;
	trace_memcg_stock_refill(memcg, nr_pages,
				 kmem ? stock->nr_kmem : stock->nr_pages,
				 kmem ? TRACE_REFILL_KMEM : TRACE_REFILL_RES);
	local_irq_restore(flags);
}

/*
 * drain_local_stock - on each CPU, by IPI: drain this CPU's stock if it
 * belongs to the subtree of arg (a domain, or NULL for any).
 */
static void drain_local_stock(void *arg)
{
	struct mem_cgroup *top = arg;
	struct memcg_stock_pcp *stock;
	unsigned long flags;

	flags = local_irq_save();
	stock = this_cpu_stock();
	if (stock->cached &&
	    (!top || res_counter_is_ancestor(&stock->cached->res, &top->res))) {
		trace_memcg_stock_drain_all(stock->cached,
					    stock->nr_pages + stock->nr_kmem,
					    top);
		drain_stock(stock);
	}
	obj_stock_drain_subtree(&stock->obj, top);
	local_irq_restore(flags);
}

/*
 * stock_holds - smp_call_function_some's choice for drain_all_stock: does
 * cpu's stock hold charge of the subtree of arg? Asked with interrupts
 * off (see the top of this file). In `objects`, every CPU: the record a
 * byte stock holds may be freed by its own CPU at any moment, so only
 * that CPU may follow it to its domain.
 */
static bool stock_holds(unsigned int cpu, void *arg)
{
	struct mem_cgroup *top = arg;
	struct mem_cgroup *cached = READ_ONCE(memcg_stock_of(cpu)->cached);

	if (memcg_slab_objects())
		return true;
	return cached && res_counter_is_ancestor(&cached->res, &top->res);
}

unsigned int drain_all_stock(struct mem_cgroup *memcg)
{
	if (!memcg) {
		smp_call_function_all(drain_local_stock, NULL);
		return nr_cpus;
	}
	return smp_call_function_some(stock_holds, drain_local_stock, memcg);
}

void drain_all_stock_removed(struct mem_cgroup *memcg)
{
	smp_call_function_all(drain_local_stock, memcg);
}

unsigned long memcg_stock_pages_subtree(struct mem_cgroup *top, bool kmem)
{
	unsigned long pages = 0, flags;

	/* Interrupts off across each read of cached and the walk from it:
	 * see the top of this file. */
	flags = local_irq_save();
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct memcg_stock_pcp *stock = memcg_stock_of(cpu);
		struct mem_cgroup *cached = READ_ONCE(stock->cached);

		if (cached && res_counter_is_ancestor(&cached->res, &top->res))
			pages += READ_ONCE(stock->nr_kmem) +
				 (kmem ? 0 : READ_ONCE(stock->nr_pages));
	}
	local_irq_restore(flags);
	return pages;
}

/* stock_pages - memcg's stocked pages on all CPUs: kernel ones, and user
 * ones too if all. Compares pointers only (see the top of this file). */
static unsigned long stock_pages(struct mem_cgroup *memcg, bool all)
{
	unsigned long pages = 0;

	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct memcg_stock_pcp *stock = memcg_stock_of(cpu);

		if (READ_ONCE(stock->cached) != memcg)
			continue;
		pages += READ_ONCE(stock->nr_kmem);
		if (all)
			pages += READ_ONCE(stock->nr_pages);
	}
	return pages;
}

unsigned long memcg_stock_pages(struct mem_cgroup *memcg)
{
	return stock_pages(memcg, true);
}

unsigned long memcg_stock_kmem_pages(struct mem_cgroup *memcg)
{
	return stock_pages(memcg, false);
}

void memcg_stock_set_enabled(bool on)
{
	bool on_now = memcg_stock_on();

	if (on && !on_now)
		static_key_slow_dec(&memcg_stock_off_key);
	else if (!on && on_now)
		static_key_slow_inc(&memcg_stock_off_key);
	if (!on)
		drain_all_stock(NULL);
}

void memcg_stock_set_kmem(bool on)
{
	WRITE_ONCE(memcg_stock_kmem, on);
	WRITE_ONCE(stock_kmem_high, on ? STOCK_KMEM_HIGH : 0);
	drain_all_stock(NULL);
}
