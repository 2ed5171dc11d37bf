// SPDX-License-Identifier: MIT
/*
 * kernel/ktest/ktest_numa.c - in-kernel tests of the per-node buddy allocator
 * (mm/buddy.c, mm/numa.h) on the machine's real topology: each CPU is
 * served from its own node, and a block freed on another node's CPU goes
 * back to its own node. On a machine without an SRAT every CPU and frame
 * is node 0 and the cases check that too; tests/qemu/numa.t runs them on
 * QEMU's two-node machine.
 *
 * They count free pages: a quiet machine is expected (the shell waits).
 */
#include "kernel/ktest/ktest.h"
#include "kernel/base/platform.h"
#include "mm/buddy.h"
#include "mm/numa.h"
#include "mm/pcp.h"

/* What each CPU allocated in alloc_on_this_cpu. */
static struct page *order0_page[NR_CPUS], *order2_page[NR_CPUS];

/* On every CPU at once (a function-call IPI, hence GFP_ATOMIC): one page
 * through the per-CPU list, one order-2 block from the free lists. */
static void alloc_on_this_cpu(void *unused)
{
	unsigned int cpu = smp_processor_id();

	order0_page[cpu] = alloc_pages(GFP_ATOMIC, 0);
	order2_page[cpu] = alloc_pages(GFP_ATOMIC, 2);
}

/* The free frames of each node's zone, per-CPU lists drained first. */
static void zone_free_snapshot(unsigned long *free)
{
	drain_all_pages();
	for (unsigned int nid = 0; nid < nr_node_ids; nid++)
		free[nid] = READ_ONCE(node_zones[nid].free_pages);
}

/*
 * numa_local_alloc: a CPU's pages come from its own node - both the
 * per-CPU list's and the free lists' - and page->node agrees with the
 * SRAT's range of the frame. The order-2 blocks are taken from exactly
 * the zones of the CPUs' nodes, and freeing them all from this CPU (of
 * whatever node) puts each back in its own node's zone.
 */
static void ktest_numa_local_alloc(struct ktest *t)
{
	unsigned long before[MAX_NUMNODES], taken[MAX_NUMNODES],
		after[MAX_NUMNODES];
	unsigned long expect[MAX_NUMNODES] = {0};
	bool all_local = true, all_allocated = true, node_field_ok = true;

	zone_free_snapshot(before);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		order0_page[cpu] = order2_page[cpu] = NULL;
	smp_call_function_all(alloc_on_this_cpu, NULL);

	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct page *p0 = order0_page[cpu], *p2 = order2_page[cpu];
		unsigned int nid = cpu_to_node(cpu);

		if (!p0 || !p2) {
			all_allocated = false;
			continue;
		}
		printk("# cpu %u (node %u): order-0 pfn 0x%lx node %u, "
		       "order-2 pfn 0x%lx node %u\n", cpu, nid,
		       (unsigned long)page_to_pfn(p0), p0->node,
		       (unsigned long)page_to_pfn(p2), p2->node);
		if (p0->node != nid || p2->node != nid)
			all_local = false;
		if (p0->node != numa_pfn_to_nid(page_to_pfn(p0)) ||
		    p2->node != numa_pfn_to_nid(page_to_pfn(p2)))
			node_field_ok = false;
		expect[nid] += 4;
	}
	/* The order-0 pages came from per-CPU lists: give them back first,
	 * so that only the order-2 blocks are out of the zones. */
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		free_pages(order0_page[cpu], 0);
	zone_free_snapshot(taken);
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		free_pages(order2_page[cpu], 2);
	zone_free_snapshot(after);

	KTEST_EXPECT(t, all_allocated,
		     "every CPU got an order-0 and an order-2 block");
	KTEST_EXPECT(t, all_local, "every CPU's pages are of its own node");
	KTEST_EXPECT(t, node_field_ok,
		     "page->node is the node of the frame's SRAT range");
	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		printk("# node %u: %lu free, %lu with the blocks out (%lu "
		       "expected out), %lu after freeing\n", nid, before[nid],
		       taken[nid], expect[nid], after[nid]);
		KTEST_EXPECT(
			t, before[nid] - taken[nid] == expect[nid],
			"each node's zone gave the blocks of its own CPUs");
		KTEST_EXPECT(t, after[nid] == before[nid],
			     "each block went back to its own node's zone");
	}
}
KTEST(numa_local_alloc);
