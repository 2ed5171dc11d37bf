// SPDX-License-Identifier: MIT
/*
 * kernel/bench/bench_charge_depth.c - how the cost of a kernel charge
 * grows with the depth of the domain in the hierarchy: one page charged
 * to a domain D levels below the root (use_hierarchy, so that every level
 * is charged) and uncharged, as alloc_pages and free_accounted_pages do
 * (memcg_charge_kmem, memcg_uncharge_kmem). With the per-CPU stock the
 * charge is served from this CPU's stock whatever the depth; without it,
 * each level's res and kmem counters are charged. One line per depth and
 * stock:
 *
 *   bench charge_depth depth=D stock=0|1 median_cycles=N p99_cycles=N ops=N
 *
 * "depth=D" stands where a parser of the bench lines expects
 * median_cycles, so these lines are never mistaken for another
 * benchmark's.
 */
#include <stdio.h>

#include "kernel/bench/bench.h"
#include "kernel/base/platform.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"

#define DEPTH_MAX 16

static struct mem_cgroup *depth_leaf;

static void op_charge(void *arg)
{
	(void)arg;
	if (memcg_charge_kmem(depth_leaf, GFP_KERNEL, 1) != 0)
		panic("bench: charge_depth: a charge was refused");
	memcg_uncharge_kmem(depth_leaf, 1);
}

static void depth_print(unsigned int depth, bool stock)
{
	struct bench_result r;

	memcg_stock_set_enabled(stock);
	r = bench_time(op_charge, NULL);
	memcg_stock_set_enabled(true);
	drain_all_stock(depth_leaf);
	printk("bench charge_depth depth=%u stock=%d median_cycles=%lu "
	       "p99_cycles=%lu ops=%lu\n", depth, stock ? 1 : 0,
	       (unsigned long)r.median_cycles, (unsigned long)r.p99_cycles,
	       r.ops);
}

static void bench_charge_depth(void)
{
	struct mem_cgroup *chain[DEPTH_MAX + 1];
	unsigned int depth = 0;

	chain[0] = root_mem_cgroup;
	for (unsigned int d = 1; d <= DEPTH_MAX; d++) {
		char name[16];

		snprintf(name, sizeof(name), "depth%u", d);
		if (mem_cgroup_create(chain[d - 1], name, &chain[d]) < 0)
			break;
		depth = d;
		if (d == 1)
			mem_cgroup_set_use_hierarchy(chain[1], true);
		if (memcg_update_kmem_limit(chain[d], 1ll << 30) < 0)
			break;
		if ((d & (d - 1)) == 0) {  /* 1, 2, 4, 8, 16 */
			depth_leaf = chain[d];
			depth_print(d, true);
			depth_print(d, false);
		}
	}
	if (depth < DEPTH_MAX)
		printk("# bench charge_depth: cannot make depth %u\n",
		       depth + 1);
	for (; depth > 0; depth--)
		if (mem_cgroup_destroy(chain[depth]) < 0)
			printk("# bench charge_depth: cannot remove depth "
			       "%u\n", depth);
}
BENCH(charge_depth);
