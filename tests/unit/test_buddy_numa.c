// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_buddy_numa.c - host tests of the buddy allocator with
 * per-node free lists (mm/buddy.c, mm/pcp.c, mm/numa.c, mm/init.c): local
 * node first, fallback to the other node, frees back to the page's own
 * node, no block across a node boundary, /proc/buddyinfo and /proc/numa.
 *
 * The layout: 16 MiB of RAM at physical 16 MiB (pfn 4096..8191), as in
 * test_buddy.c, split as an SRAT would split it:
 *
 *   node 0: the first 6 MiB, pfn 4096..5631 - minus 16 reserved frames and
 *           64 of mem_map: 1456 usable frames
 *   node 1: the other 10 MiB, pfn 5632..8191: 2560 usable frames
 *
 * CPU 0 is on node 0, CPU 1 on node 1. The boundary (pfn 5632) is not a
 * multiple of 1024, so the order-10 block 5120..6143 would cross it: it
 * must be two order-9 blocks, one per node, that never merge.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/buddy.h"
#include "mm/meminfo.h"
#include "mm/numa.h"
#include "mm/pcp.h"
#include "tests/unit/host_mem.h"

#define MEM_SIZE (16ul << 20)
#define NODE0_BYTES (6ul << 20)
#define BOUNDARY_PFN ((HOST_MEM_BASE + NODE0_BYTES) >> PAGE_SHIFT) /* 5632 */
#define NODE0_USABLE (1536 - 16 - 64)
#define NODE1_USABLE 2560

static int setup(void **state)
{
	numa_reset();
	assert_int_equal(numa_add_memblk(0, HOST_MEM_BASE,
					 HOST_MEM_BASE + NODE0_BYTES), 0);
	assert_int_equal(numa_add_memblk(1, HOST_MEM_BASE + NODE0_BYTES,
					 HOST_MEM_BASE + MEM_SIZE), 0);
	numa_set_cpu_node(0, 0);
	numa_set_cpu_node(1, 1);
	nr_cpus = 2;
	host_set_cpu(0);
	page_poisoning = false;
	host_mem_init(MEM_SIZE);
	return 0;
}

static int teardown(void **state)
{
	numa_reset();
	nr_cpus = 1;
	host_set_cpu(0);
	return 0;
}

/* zone_free - a node's free frames, per-CPU lists drained first. */
static unsigned long zone_free(unsigned int nid)
{
	drain_all_pages();
	return node_zones[nid].free_pages;
}

/* Every frame knows its node; each zone got exactly its node's frames. */
static void test_init_nodes(void **state)
{
	assert_int_equal(nr_node_ids, 2);
	assert_int_equal(cpu_to_node(1), 1);
	assert_int_equal(pfn_to_page(BOUNDARY_PFN - 1)->node, 0);
	assert_int_equal(pfn_to_page(BOUNDARY_PFN)->node, 1);
	assert_int_equal(pfn_to_page(8191)->node, 1);
	assert_int_equal(node_zones[0].present_pages, NODE0_USABLE);
	assert_int_equal(node_zones[1].present_pages, NODE1_USABLE);
	assert_int_equal(zone_free(0), NODE0_USABLE);
	assert_int_equal(zone_free(1), NODE1_USABLE);
	assert_int_equal(totalram_pages, NODE0_USABLE + NODE1_USABLE);
	assert_int_equal(nr_free_pages(), totalram_pages);
	/* The straddling order-10 block is two order-9 halves, one a node. */
	assert_true(pfn_to_page(5120)->flags & PG_buddy);
	assert_int_equal(pfn_to_page(5120)->order, 9);
	assert_true(pfn_to_page(BOUNDARY_PFN)->flags & PG_buddy);
	assert_int_equal(pfn_to_page(BOUNDARY_PFN)->order, 9);
}

/* A CPU is served from its own node, through the per-CPU list (order 0)
 * and from the free lists (order 3). */
static void test_local_first(void **state)
{
	struct page *p0, *p3, *q0, *q3;

	host_set_cpu(1);
	p0 = alloc_page(GFP_KERNEL);
	p3 = alloc_pages(GFP_KERNEL, 3);
	host_set_cpu(0);
	q0 = alloc_page(GFP_KERNEL);
	q3 = alloc_pages(GFP_KERNEL, 3);
	assert_non_null(p0);
	assert_non_null(p3);
	assert_non_null(q0);
	assert_non_null(q3);
	assert_int_equal(p0->node, 1);
	assert_int_equal(p3->node, 1);
	assert_true(page_to_pfn(p0) >= BOUNDARY_PFN);
	assert_true(page_to_pfn(p3) >= BOUNDARY_PFN);
	assert_int_equal(q0->node, 0);
	assert_int_equal(q3->node, 0);
	assert_true(page_to_pfn(q0) < BOUNDARY_PFN);
	assert_true(page_to_pfn(q3) < BOUNDARY_PFN);
	assert_int_equal(zone_free(1), NODE1_USABLE - 1 - 8);
	assert_int_equal(zone_free(0), NODE0_USABLE - 1 - 8);
	free_pages(p0, 0);
	free_pages(p3, 3);
	free_pages(q0, 0);
	free_pages(q3, 3);
	assert_int_equal(zone_free(0), NODE0_USABLE);
	assert_int_equal(zone_free(1), NODE1_USABLE);
}

/* When its node is empty a CPU falls back to the other node: exactly all
 * of node 1 comes first, then node 0; and everything goes back. */
static void test_fallback(void **state)
{
	static struct page *pages[NODE0_USABLE + NODE1_USABLE + 1];  /* + the NULL */
	unsigned int n = 0, local = 0;
	struct page *big;

	host_set_cpu(1);
	while ((pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)) != NULL) {
		if (pages[n]->node == 1) {
			assert_int_equal(local, n);  /* no node-0 page before */
			local++;
		}
		n++;
	}
	assert_int_equal(local, NODE1_USABLE);
	assert_int_equal(n, NODE0_USABLE + NODE1_USABLE);
	assert_int_equal(nr_free_pages(), 0);
	for (unsigned int i = 0; i < n; i++)
		free_pages(pages[i], 0);
	assert_int_equal(zone_free(0), NODE0_USABLE);
	assert_int_equal(zone_free(1), NODE1_USABLE);

	/* Larger blocks too: node 1's 4 MiB blocks, then node 0's. */
	struct page *b1 = alloc_pages(GFP_KERNEL, 10);
	struct page *b2 = alloc_pages(GFP_KERNEL, 10);
	assert_non_null(b1);
	assert_non_null(b2);
	assert_int_equal(b1->node, 1);
	assert_int_equal(b2->node, 1);
	big = alloc_pages(GFP_KERNEL, 9);  /* node 1 has 512 frames left */
	assert_non_null(big);
	assert_int_equal(big->node, 1);
	struct page *remote = alloc_pages(GFP_KERNEL, 8);
	assert_non_null(remote);
	assert_int_equal(remote->node, 0);
	free_pages(remote, 8);
	free_pages(big, 9);
	free_pages(b2, 10);
	free_pages(b1, 10);
	assert_int_equal(zone_free(0), NODE0_USABLE);
	assert_int_equal(zone_free(1), NODE1_USABLE);
}

/* A block freed on a CPU of the other node goes to its own node's zone,
 * order 0 included (not onto the freeing CPU's list). */
static void test_free_to_own_node(void **state)
{
	struct page *p0, *p2;
	unsigned long node0, node1;
	int cpu0_count;

	drain_all_pages();
	host_set_cpu(1);
	p0 = alloc_page(GFP_KERNEL);
	p2 = alloc_pages(GFP_KERNEL, 2);
	assert_int_equal(p0->node, 1);
	assert_int_equal(p2->node, 1);

	host_set_cpu(0);
	node0 = node_zones[0].free_pages;
	node1 = node_zones[1].free_pages;
	cpu0_count = pcp_lists[0].count;
	free_pages(p2, 2);
	assert_int_equal(node_zones[1].free_pages, node1 + 4);
	free_pages(p0, 0);
	assert_int_equal(node_zones[1].free_pages, node1 + 5);
	assert_int_equal(node_zones[0].free_pages, node0);
	assert_int_equal(pcp_lists[0].count, cpu0_count);
	assert_true(p0->flags & PG_buddy || p0->flags == 0);
	assert_false(p0->flags & PG_pcp);
	assert_int_equal(zone_free(0), NODE0_USABLE);
	assert_int_equal(zone_free(1), NODE1_USABLE);
}

/* The halves at the boundary stay apart, after everything has been
 * allocated and freed in every order. */
static void test_no_merge_across_nodes(void **state)
{
	static struct page *pages[NODE0_USABLE + NODE1_USABLE + 1];  /* + the NULL */
	static unsigned int orders[NODE0_USABLE + NODE1_USABLE + 1];
	unsigned int n = 0;

	host_set_cpu(0);
	for (int order = 9; order >= 0; order--)
		while ((pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN,
					       order)) != NULL)
			orders[n++] = order;
	assert_int_equal(nr_free_pages(), 0);
	while (n-- > 0)
		free_pages(pages[n], orders[n]);
	drain_all_pages();
	assert_int_equal(pfn_to_page(5120)->order, 9);
	assert_true(pfn_to_page(5120)->flags & PG_buddy);
	assert_int_equal(pfn_to_page(BOUNDARY_PFN)->order, 9);
	assert_true(pfn_to_page(BOUNDARY_PFN)->flags & PG_buddy);
	assert_int_equal(zone_free(0), NODE0_USABLE);
	assert_int_equal(zone_free(1), NODE1_USABLE);
}

/* /proc/buddyinfo: one line per node, adding up to MemFree; /proc/numa. */
static void test_proc_files(void **state)
{
	char buf[1024];
	unsigned long total = 0;
	int lines = 0;
	char *line;

	drain_all_pages();
	buddyinfo_show(buf, sizeof(buf));
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned int nid;
		int off;
		char *p;

		assert_int_equal(sscanf(line, "Node %u, zone   Normal %n",
					&nid, &off), 1);
		assert_int_equal(nid, (unsigned int)lines);
		p = line + off;
		for (int order = 0; order <= MAX_ORDER; order++)
			total += strtoul(p, &p, 10) << order;
		lines++;
	}
	assert_int_equal(lines, 2);
	assert_int_equal(total, nr_free_pages());

	numa_show(buf, sizeof(buf));
	assert_string_equal(buf,
		"available: 2 nodes (0-1)\n"
		"node 0 cpus: 0\n"
		"node 0 size: 5 MB\n"
		"node 0 free: 5 MB\n"
		"node 1 cpus: 1\n"
		"node 1 size: 10 MB\n"
		"node 1 free: 10 MB\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_init_nodes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_local_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_free_to_own_node, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_merge_across_nodes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_proc_files, setup, teardown),
	};

	setenv("HOST_QUIET", "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
