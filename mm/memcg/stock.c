// SPDX-License-Identifier: MIT
/*
 * mm/memcg/stock.c - the per-CPU charge stock: pages charged to a domain in
 * advance, one batch at a time, so that most charges touch only this
 * CPU's data (Linux 2012: consume_stock, refill_stock, drain_stock,
 * drain_all_stock in mm/memcg/memcontrol.c).
 *
 * The charge path (mm/memcg/memcg_charge.c) is:
 *
 *   consume_stock(memcg, n)        enough stocked for memcg? take n: done
 *   res_counter_charge(batch)      else charge max(CHARGE_BATCH, n) pages
 *   refill_stock(memcg, batch - n) and stock the surplus
 *
 * A stock holds no reference on its domain. Instead a domain being removed
 * is marked dying before all stocks are drained (by IPI), and a dying
 * domain is never stocked again, so no stock can name a freed domain.
 */
#include "mm/memcg/stock.h"

#include "kernel/trace/trace_events.h"
#include "mm/memcg/memcontrol.h"
#include "mm/page.h"

struct memcg_stock_pcp memcg_stock[NR_CPUS];
bool memcg_stock_enabled = true;

bool consume_stock(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock;
	unsigned long flags;
	bool ret = true;

	if (nr_pages > CHARGE_BATCH || !READ_ONCE(memcg_stock_enabled))
		return false;

	flags = local_irq_save();
	stock = &memcg_stock[smp_processor_id()];
	if (memcg == stock->cached && stock->nr_pages >= nr_pages)
		stock->nr_pages -= nr_pages;
	else /* need to call res_counter_charge */
		ret = false;
	trace_memcg_stock_consume(memcg, nr_pages, stock->cached, stock->nr_pages, ret);
	local_irq_restore(flags);
	return ret;
}

/*
 * drain_stock - return the stocked pages to the res counter, and forget
 * the cached domain. Interrupts off, on the stock's own CPU.
 */
static void drain_stock(struct memcg_stock_pcp *stock)
{
	struct mem_cgroup *old = stock->cached;

	if (stock->nr_pages) {
		res_counter_uncharge(&old->res,
				     (int64_t)stock->nr_pages * PAGE_SIZE);
		stock->nr_pages = 0;
	}
	stock->cached = NULL;
}

void refill_stock(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock;
	unsigned long flags;

	flags = local_irq_save();
	/* Checked with interrupts off: mem_cgroup_destroy sets dying, then
	 * drains every CPU by IPI, which waits for this section to end. */
	if (unlikely(__atomic_load_n(&memcg->dying, __ATOMIC_ACQUIRE))) {
		local_irq_restore(flags);
		res_counter_uncharge(&memcg->res, (int64_t)nr_pages * PAGE_SIZE);
		return;
	}
	stock = &memcg_stock[smp_processor_id()];
	if (stock->cached != memcg) { /* reset if necessary */
		trace_memcg_stock_drain_switch(stock->cached, stock->nr_pages);
		drain_stock(stock);
		stock->cached = memcg;
	}
	stock->nr_pages += nr_pages;
	trace_memcg_stock_refill(memcg, nr_pages, stock->nr_pages);
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
	stock = &memcg_stock[smp_processor_id()];
	trace_memcg_stock_drain_all(stock->cached, stock->nr_pages, top);
	if (stock->cached &&
	    (!top || res_counter_is_ancestor(&stock->cached->res, &top->res)))
		drain_stock(stock);
	local_irq_restore(flags);
}

void drain_all_stock(struct mem_cgroup *memcg)
{
	smp_call_function_all(drain_local_stock, memcg);
}

bool memcg_stocks_hold_any(void)
{
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		if (READ_ONCE(memcg_stock[cpu].nr_pages))
			return true;
	return false;
}

unsigned long memcg_stock_pages_subtree(struct mem_cgroup *top)
{
	unsigned long pages = 0;

	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct memcg_stock_pcp *stock = &memcg_stock[cpu];
		struct mem_cgroup *cached = READ_ONCE(stock->cached);

		/* A stock names no freed domain (see the top of this file). */
		if (cached && res_counter_is_ancestor(&cached->res, &top->res))
			pages += READ_ONCE(stock->nr_pages);
	}
	return pages;
}

unsigned long memcg_stock_pages(struct mem_cgroup *memcg)
{
	unsigned long pages = 0;

	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct memcg_stock_pcp *stock = &memcg_stock[cpu];

		if (READ_ONCE(stock->cached) == memcg)
			pages += READ_ONCE(stock->nr_pages);
	}
	return pages;
}

void memcg_stock_set_enabled(bool on)
{
	WRITE_ONCE(memcg_stock_enabled, on);
	if (!on)
		drain_all_stock(NULL);
}
