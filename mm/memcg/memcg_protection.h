/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcg_protection.h - memory.min and memory.low: the cache
 * pages reclaim leaves to a domain (Linux: mem_cgroup_calculate_protection
 * and mem_cgroup_below_min/low in mm/memcontrol.c). How the protection is
 * shared out is told at the top of mm/memcg/memcg_protection.c.
 */
#ifndef MM_MEMCG_PROTECTION_H
#define MM_MEMCG_PROTECTION_H

#include <stdbool.h>
#include <stdint.h>

struct mem_cgroup;

/* memcg_protection_set - memory.min (min true) or memory.low of memcg
 * is now bytes (a page multiple; RES_COUNTER_MAX: max). */
void memcg_protection_set(struct mem_cgroup *memcg, bool min, int64_t bytes);

/*
 * memcg_protection_begin - a reclaim for root (the domain whose limit was
 * hit, or whose memory.reclaim was written) is about to start: work out
 * the effective protection of every domain below root. Returns false,
 * having done nothing, until some domain has had memory.min or
 * memory.low set: then no page is protected. Takes memcg_tree_lock.
 */
bool memcg_protection_begin(struct mem_cgroup *root);

enum memcg_protected {
	MEMCG_UNPROTECTED,    /* above its protection: reclaim may take */
	MEMCG_PROTECTED_LOW,  /* at or below its effective memory.low */
	MEMCG_PROTECTED_MIN,  /* at or below its effective memory.min */
};

/*
 * memcg_protected - is memcg (root or a domain below it) protected from
 * the reclaim for root that memcg_protection_begin prepared: its usage
 * now against its effective min and low. Root itself never is.
 */
enum memcg_protected memcg_protected(struct mem_cgroup *root,
				     struct mem_cgroup *memcg);

/*
 * memcg_protection_breach - the reclaim for root could not get enough
 * from unprotected domains and now takes from those only memory.low
 * protects: count `low` (memory.events) in each of them. Takes
 * memcg_tree_lock.
 */
void memcg_protection_breach(struct mem_cgroup *root);

#endif
