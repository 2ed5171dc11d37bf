/* SPDX-License-Identifier: MIT */
/*
 * mm/meminfo.h - the /proc files of physical memory: /proc/meminfo,
 * /proc/buddyinfo and /proc/numa, in Linux's formats.
 */
#ifndef MM_MEMINFO_H
#define MM_MEMINFO_H

#include <stddef.h>

/*
 * meminfo_show - the text of /proc/meminfo into buf (NUL-terminated, at
 * most size bytes with the NUL); returns its length. Lines as Linux's:
 *
 *   MemTotal:         515204 kB
 *   MemFree:          498812 kB
 *   Slab:                 48 kB
 */
int meminfo_show(char *buf, size_t size);

/*
 * buddyinfo_show - the text of /proc/buddyinfo: free blocks of each order
 * 0..MAX_ORDER, as Linux prints them:
 *
 *   Node 0, zone   Normal      1      0      2 ...    122
 *
 * one line per NUMA node with memory (a single line without an SRAT).
 */
int buddyinfo_show(char *buf, size_t size);

/*
 * numa_show - the text of /proc/numa, the NUMA layout as `numactl
 * --hardware` prints it (without the distances):
 *
 *   available: 2 nodes (0-1)
 *   node 0 cpus: 0 1
 *   node 0 size: 511 MB
 *   node 0 free: 490 MB
 *   node 1 cpus: 2 3
 *   node 1 size: 512 MB
 *   node 1 free: 500 MB
 *
 * size is the frames the node gave the allocator, free its buddy free
 * lists (per-CPU lists not included).
 */
int numa_show(char *buf, size_t size);

#endif
