/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcg_stat.h - what the control files report: memory.stat, and the
 * root's system-wide usage figures.
 *
 * Some numbers are kept as counters (rss, cache, kernel stacks, the res
 * and kmem counters); the others are found by a census of mem_map: a walk
 * over every frame that sorts it into free, reserved, or allocated, and
 * each allocated block into charged to a domain (kmem or user) or not.
 * mm/memcg/memcg_check.c uses the same census to verify the invariants.
 */
#ifndef MM_MEMCG_STAT_H
#define MM_MEMCG_STAT_H

#include <stddef.h>
#include <stdint.h>

#include "mm/memcg/res_counter.h"

struct mem_cgroup;

/* memory.stat, in bytes (docs/interface.md). */
struct mem_cgroup_stat {
	uint64_t cache, rss, kmem, kernel_stack, slab, stock;
	uint64_t hierarchical_memory_limit, hierarchical_kmem_limit;
	uint64_t total_cache, total_rss, total_kmem, total_kernel_stack,
		total_slab, total_stock;
};

/*
 * mem_cgroup_read_stat - memory.stat of memcg.
 *
 * The first six are the domain's own pages (for the root: those charged
 * to no domain - its own tasks' user pages and all unaccounted kernel
 * memory); the total_ forms add every descendant, removed ones still
 * holding kernel pages included (for the root: the whole machine). The
 * hierarchical limits are the smallest of the domain's and its
 * ancestors' up to the first without use_hierarchy. Returns 0, or
 * -ENOMEM.
 */
int mem_cgroup_read_stat(struct mem_cgroup *memcg, struct mem_cgroup_stat *st);

/*
 * mem_cgroup_read_counter - a member of memcg's res or kmem counter, as
 * the memory.* files show it. The root is never charged: it reports the
 * machine instead - usage (and max usage) is all allocated memory (kmem:
 * all of it that is not user memory), the limit is unlimited, failcnt 0.
 */
uint64_t mem_cgroup_read_counter(struct mem_cgroup *memcg, bool kmem,
				 enum res_member member);

/*
 * mem_cgroup_reset_max - memory.max_usage_in_bytes (kmem: the kmem one)
 * written with 0: max_usage becomes the usage, without what CPUs hold in
 * stock for the subtree (given back first, as for a usage read).
 */
void mem_cgroup_reset_max(struct mem_cgroup *memcg, bool kmem);

/* A census of mem_map: see the top of this file. */
struct memcg_census {
	struct mem_cgroup **all;  /* every domain, with a reference */
	size_t nr;
	struct mem_cgroup **set;  /* the same, hashed by address (open
				   * addressing: memcg_census_find) */
	size_t set_mask;          /* its size less one, a power of two */
	unsigned long free_pages;         /* buddy and per-CPU lists */
	unsigned long reserved_pages;
	unsigned long kmem_pages;         /* charged to a domain */
	unsigned long user_pages;         /* PG_user, any domain */
	unsigned long unaccounted_pages;  /* allocated, charged to none */
	unsigned long root_kmem_pages;    /* PG_kmemcg owned by the root */
	unsigned long stray_pages;        /* in no block: corrupt or racing */
	uint64_t first_stray_pfn;
	unsigned long unknown_pages;      /* page->memcg is not a domain */
	uint64_t first_unknown_pfn;
	unsigned long unknown_stocks;     /* a stock's domain is not one */
	unsigned long unknown_owners;     /* an owner record's domain is not
					   * one */
	uint64_t unowned_bytes;           /* objects whose owner id names no
					   * record */
};

/*
 * memcg_census_take - count every frame. Each domain's scan_* fields get
 * what was found for it: scan_kmem and scan_res the bytes charged to its
 * counters (the subtree's, as the counters are charged, stocks included
 * in scan_res), scan_kmem_pages, scan_user_pages and scan_slab_pages its
 * own pages. Holds the census lock until memcg_census_release(); take it
 * without memcg_tree_lock held. Returns 0 or -ENOMEM.
 */
int memcg_census_take(struct memcg_census *census);
void memcg_census_release(struct memcg_census *census);

/* memcg_census_find - ptr if it is one of the census's domains, else NULL
 * (safe for any pointer: nothing is dereferenced). */
struct mem_cgroup *memcg_census_find(const struct memcg_census *census,
				     const void *ptr);

#endif
