// SPDX-License-Identifier: MIT
/*
 * mm/meminfo.c - the text of /proc/meminfo and /proc/buddyinfo (the files
 * themselves are made in kernel/fs/proc_mm.c): how much memory there
 * is, how much is free, and how fragmented the free memory is.
 *
 * MemFree counts the buddy allocator's free lists and the per-CPU lists
 * (nr_free_pages). buddyinfo shows, for each order, how many free blocks
 * of that size the buddy allocator holds (pages on per-CPU lists are not
 * in it, as in Linux), one line per NUMA node that has memory.
 *
 * /proc/numa is the machine's NUMA layout in the words of `numactl
 * --hardware`: the nodes, each node's CPUs, its size and its free memory
 * (its buddy free lists; per-CPU lists not included):
 *
 *   available: 2 nodes (0-1)
 *   node 0 cpus: 0 1
 *   node 0 size: 511 MB
 *   node 0 free: 490 MB
 *   node 1 cpus: 2 3
 *   ...
 */
#include "mm/meminfo.h"

#include <stdarg.h>
#include <stdio.h>

#include "mm/buddy.h"
#include "mm/slab.h"

/* Append to buf at *len, never past size; returns the new length. */
static int __attribute__((format(printf, 4, 5)))
buf_printf(char *buf, size_t size, int len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if ((size_t)len + 1 >= size)
		return len;
	va_start(ap, fmt);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return len;
	if ((size_t)len + (size_t)n >= size)
		return size - 1;
	return len + n;
}

/* Linux's show_val_kb: the label padded to 16 columns, then %8lu kB. */
static int show_val_kb(char *buf, size_t size, int len, const char *label,
		       unsigned long pages)
{
	return buf_printf(buf, size, len, "%-16s%8lu kB\n", label,
			  pages << (PAGE_SHIFT - 10));
}

int meminfo_show(char *buf, size_t size)
{
	int len = 0;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	len = show_val_kb(buf, size, len, "MemTotal:", totalram_pages);
	len = show_val_kb(buf, size, len, "MemFree:", nr_free_pages());
	len = show_val_kb(buf, size, len, "Slab:", READ_ONCE(nr_slab_pages));
	return len;
}

/* A node is shown if it has memory (node 0 always, as on Linux). */
static bool node_populated(unsigned int nid)
{
	return nid == 0 || READ_ONCE(node_zones[nid].present_pages) != 0;
}

int buddyinfo_show(char *buf, size_t size)
{
	unsigned long nr_free[MAX_ORDER + 1];
	unsigned long flags;
	int len = 0;

	if (size == 0)
		return 0;
	buf[0] = '\0';

	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		struct zone *zone = &node_zones[nid];

		if (!node_populated(nid))
			continue;
		/* One consistent snapshot of the node's counts. */
		flags = spin_lock_irqsave(&zone->lock);
		for (int order = 0; order <= MAX_ORDER; order++)
			nr_free[order] = zone->free_area[order].nr_free;
		spin_unlock_irqrestore(&zone->lock, flags);

		/* Linux's frag_show_print, exactly. */
		len = buf_printf(buf, size, len, "Node %u, zone %8s ", nid,
				 zone->name);
		for (int order = 0; order <= MAX_ORDER; order++)
			len = buf_printf(buf, size, len, "%6lu ",
					 nr_free[order]);
		len = buf_printf(buf, size, len, "\n");
	}
	return len;
}

int numa_show(char *buf, size_t size)
{
	int len = 0;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	len = buf_printf(buf, size, len, "available: %u nodes (0-%u)\n",
			 nr_node_ids, nr_node_ids - 1);
	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		struct zone *zone = &node_zones[nid];

		len = buf_printf(buf, size, len, "node %u cpus:", nid);
		for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
			if (cpu_to_node(cpu) == nid)
				len = buf_printf(buf, size, len, " %u", cpu);
		len = buf_printf(buf, size, len, "\n");
		len = buf_printf(buf, size, len, "node %u size: %lu MB\n", nid,
				 READ_ONCE(zone->present_pages) >>
					 (20 - PAGE_SHIFT));
		len = buf_printf(buf, size, len, "node %u free: %lu MB\n", nid,
				 READ_ONCE(zone->free_pages) >>
					 (20 - PAGE_SHIFT));
	}
	return len;
}
