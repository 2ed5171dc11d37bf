// SPDX-License-Identifier: MIT
/*
 * kernel/bench/bench_charge_steps.c - the charge path's steps, each timed
 * alone (one charge and its uncharge per operation), for the cost of each
 * step in the walk of the charge path (docs/charge-path.md;
 * mm/memcg/memcg_charge.c draws the call tree). Under icount the figures
 * are instructions:
 *
 *   bench charge_steps step=NAME median_cycles=N ...
 *
 * "step=NAME" stands where a parser of `bench` lines expects median_cycles,
 * so these lines are never mistaken for a page benchmark. The steps:
 *
 *   stock_hit     memcg_charge_kmem from the stock + memcg_uncharge_kmem
 *                 back to it (the hooks inline the same two steps)
 *   res_counter   res_counter_charge + res_counter_uncharge, one level
 *   kmem_counters memcg_charge_kmem + memcg_uncharge_kmem with the stock
 *                 off: res, kmem and a reference, page by page
 *   get_put       mem_cgroup_get + mem_cgroup_put
 *   order2_raw    alloc_pages + free_pages of order 2, not accounted: the
 *                 buddy allocator's own cost, which depends on the state
 *                 of its free lists
 */
#include "kernel/bench/bench.h"
#include "mm/buddy.h"
#include "kernel/base/platform.h"
#include "mm/memcg/memcontrol.h"
#include "mm/page.h"
#include "mm/memcg/stock.h"

static struct mem_cgroup *step_memcg;

static void op_stock_hit(void *arg)
{
	(void)arg;
	memcg_charge_kmem(step_memcg, GFP_KERNEL, 1);
	memcg_uncharge_kmem(step_memcg, 1);
}

static void op_res_counter(void *arg)
{
	struct res_counter *fail;

	(void)arg;
	res_counter_charge(&step_memcg->res, PAGE_SIZE, &fail);
	res_counter_uncharge(&step_memcg->res, PAGE_SIZE);
}

static void op_kmem_counters(void *arg)
{
	(void)arg;
	memcg_charge_kmem(step_memcg, GFP_KERNEL, 1);
	memcg_uncharge_kmem(step_memcg, 1);
}

static void op_order2_raw(void *arg)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	(void)arg;
	free_pages(page, 2);
}

static void op_get_put(void *arg)
{
	(void)arg;
	mem_cgroup_get(step_memcg);
	mem_cgroup_put(step_memcg);
}

static void step(const char *name, void (*op)(void *))
{
	struct bench_result r = bench_time(op, NULL);

	printk("bench charge_steps step=%s median_cycles=%lu p99_cycles=%lu "
	       "ops=%lu\n", name, (unsigned long)r.median_cycles,
	       (unsigned long)r.p99_cycles, r.ops);
}

static void steps_in(struct mem_cgroup *memcg)
{
	step_memcg = memcg;
	step("order2_raw", op_order2_raw);
	step("stock_hit", op_stock_hit);
	step("res_counter", op_res_counter);
	step("get_put", op_get_put);
	memcg_stock_set_enabled(false);
	step("kmem_counters", op_kmem_counters);
	memcg_stock_set_enabled(true);
}

static void bench_charge_steps(void)
{
	with_accounted_domain(steps_in);
}
BENCH(charge_steps);
