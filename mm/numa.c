// SPDX-License-Identifier: MIT
/*
 * mm/numa.c - the NUMA topology as the firmware gave it: memory ranges per
 * node, and each CPU's node. See mm/numa.h.
 *
 * The table is tiny (a few ranges per node), so lookups walk it; they are
 * made at boot only, once per frame, to fill page->node. After that the
 * node of a page is page->node and the node of a CPU is cpu_to_node().
 */
#include "mm/numa.h"

#include "mm/page.h"

struct numa_memblk {
	uint64_t start_pfn, end_pfn;  /* [start, end) */
	unsigned int nid;
};

static struct numa_memblk memblks[NUMA_MAX_MEMBLKS];
static int nr_memblks;

unsigned int nr_node_ids = 1;
uint8_t cpu_to_node_map[NR_CPUS];

int numa_add_memblk(unsigned int nid, uint64_t start, uint64_t end)
{
	struct numa_memblk *b;

	if (nid >= MAX_NUMNODES || nr_memblks == NUMA_MAX_MEMBLKS)
		return -1;
	if (end <= start)
		return 0;  /* empty: nothing to remember */
	b = &memblks[nr_memblks++];
	b->start_pfn = start >> PAGE_SHIFT;
	b->end_pfn = (end + PAGE_SIZE - 1) >> PAGE_SHIFT;
	b->nid = nid;
	if (nid + 1 > nr_node_ids)
		nr_node_ids = nid + 1;
	return 0;
}

void numa_set_cpu_node(unsigned int cpu, unsigned int nid)
{
	if (cpu >= NR_CPUS || nid >= MAX_NUMNODES)
		return;
	cpu_to_node_map[cpu] = (uint8_t)nid;
	if (nid + 1 > nr_node_ids)
		nr_node_ids = nid + 1;
}

/* The range holding pfn, or NULL. */
static const struct numa_memblk *memblk_of(uint64_t pfn)
{
	for (int i = 0; i < nr_memblks; i++)
		if (memblks[i].start_pfn <= pfn && pfn < memblks[i].end_pfn)
			return &memblks[i];
	return NULL;
}

unsigned int numa_pfn_to_nid(uint64_t pfn)
{
	const struct numa_memblk *b = memblk_of(pfn);

	return b ? b->nid : 0;
}

uint64_t numa_node_run_end(uint64_t pfn, uint64_t end)
{
	unsigned int nid = numa_pfn_to_nid(pfn);

	/* Step range by range while the next frame is on the same node. */
	while (pfn < end) {
		const struct numa_memblk *b = memblk_of(pfn);
		uint64_t next = end;

		if (b) {
			next = b->end_pfn < end ? b->end_pfn : end;
		} else {
			/* Outside every range (node 0): up to the next
			 * range. */
			for (int i = 0; i < nr_memblks; i++)
				if (memblks[i].start_pfn > pfn &&
				    memblks[i].start_pfn < next)
					next = memblks[i].start_pfn;
		}
		pfn = next;
		if (pfn < end && numa_pfn_to_nid(pfn) != nid)
			break;
	}
	return pfn;
}

void numa_reset(void)
{
	nr_memblks = 0;
	nr_node_ids = 1;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		cpu_to_node_map[cpu] = 0;
}
