/* SPDX-License-Identifier: MIT */
/*
 * mm/numa.h - NUMA nodes: which node each frame of RAM and each CPU
 * belongs to (Linux: include/linux/numa.h, topology.h, mm/numa_memblks.c).
 *
 * On a NUMA machine memory is split between nodes, each close to some of the
 * CPUs: a CPU reaches its own node's memory faster than another's. The firmware
 * says which is which in the ACPI SRAT (arch/x86_64/acpi/acpi.c), which hands
 * it to the functions below before mm_init. The buddy allocator then keeps one
 * zone per node (mm/buddy.c) and serves each CPU from its own node first.
 *
 * Without an SRAT (QEMU's default machine, most PCs) nothing is registered
 * and everything - every frame, every CPU - is node 0, as before.
 */
#ifndef MM_NUMA_H
#define MM_NUMA_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/platform.h"

#define MAX_NUMNODES 8   /* node ids 0..MAX_NUMNODES-1 */
#define NUMA_MAX_MEMBLKS 32

/* nr_node_ids - nodes known: one past the highest node id registered
 * (1 without an SRAT). */
extern unsigned int nr_node_ids;

/* cpu_to_node_map[cpu] - the node of each CPU (0 until told otherwise). */
extern uint8_t cpu_to_node_map[NR_CPUS];

static inline unsigned int cpu_to_node(unsigned int cpu)
{
	return cpu_to_node_map[cpu];
}

/* numa_node_id - the node of the CPU we run on (Linux: numa_node_id()). */
static inline unsigned int numa_node_id(void)
{
	return cpu_to_node(smp_processor_id());
}

/*
 * numa_fallback_node - the i-th node to try for an allocation on a CPU of
 * node local: local itself first (i = 0), then the others in turn. (Linux
 * orders the others by the SLIT's distances; with two nodes it is the
 * same.)
 */
static inline unsigned int numa_fallback_node(unsigned int local,
					      unsigned int i)
{
	return (local + i) % nr_node_ids;
}

/*
 * numa_add_memblk - the physical range [start, end) is memory of node nid.
 * Returns 0, or -1 (and registers nothing) if nid is out of range or the
 * table of ranges is full. Call before mm_init.
 */
int numa_add_memblk(unsigned int nid, uint64_t start, uint64_t end);

/* numa_set_cpu_node - CPU cpu is on node nid (ignored if out of range). */
void numa_set_cpu_node(unsigned int cpu, unsigned int nid);

/* numa_pfn_to_nid - the node of frame pfn: the node of the range that
 * holds it, node 0 if none does. (mm_init records it in page->node.) */
unsigned int numa_pfn_to_nid(uint64_t pfn);

/* numa_node_run_end - the first frame after pfn, at most end, that is on
 * another node than pfn: blocks handed to the allocator must not cross it. */
uint64_t numa_node_run_end(uint64_t pfn, uint64_t end);

/* numa_reset - forget every range and CPU: one node again (host tests). */
void numa_reset(void);

#endif
