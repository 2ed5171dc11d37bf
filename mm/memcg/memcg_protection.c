// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_protection.c - memory.min and memory.low (cgroup v2):
 * how much of its usage reclaim leaves to a domain (Linux 4.18 and 5.x:
 * mem_cgroup_calculate_protection, effective_protection; without the
 * memory_recursiveprot mount option, which tally does not offer).
 *
 * Protection counts only below the domain a reclaim works for - the one
 * whose limit was hit, or whose memory.reclaim was written, the root of
 * the reclaim. Each of its children is protected up to its own
 * memory.min and memory.low. Deeper down, a domain claims its setting,
 * at most its usage; when the claims of a parent's children together
 * pass the parent's own effective protection, the parent's protection is
 * shared among them in proportion to their claims. Say B (effective min
 * 50M) has C (min 75M, using 50M), D (min 25M, using 50M) and F (min 0,
 * using 50M): the claims are 50M, 25M and 0, together 75M, more than
 * 50M, so C keeps 50 x 50/75 = 33M, D 17M and F nothing - the figures
 * Linux's own tests expect.
 *
 * Reclaim (mm/memcg/user_memory.c) skips the cache pages of a domain at
 * or below its effective memory.min, always; of one at or below its
 * effective memory.low, in a first pass. Only when that pass falls short
 * does a second take from the low-protected ones too, after counting
 * `low` in each (memcg_protection_breach). A domain above its protection
 * gives pages until it is down to it.
 *
 * The effective values are worked out at the start of each reclaim, from
 * the usages of that moment, and kept in the domains (v2.emin, v2.elow).
 * Two reclaims at once for different roots may each write them: the
 * later wins, and a page is at worst judged by the other's figures, as
 * in Linux, which keeps them the same way.
 */
#include "mm/memcg/memcg_protection.h"

#include "mm/memcg/memcg_v2.h"
#include "mm/memcg/memcontrol.h"
#include "mm/page.h"

/* Set for good once a domain has memory.min or memory.low: until then
 * reclaim pays nothing for protection. */
static bool protection_used;

void memcg_protection_set(struct mem_cgroup *memcg, bool min, int64_t bytes)
{
	if (bytes > 0)
		WRITE_ONCE(protection_used, true);
	if (min)
		WRITE_ONCE(memcg->v2.min, bytes);
	else
		WRITE_ONCE(memcg->v2.low, bytes);
}

/* claim - what a domain using usage claims with its setting. */
static int64_t claim(int64_t usage, int64_t setting)
{
	return usage < setting ? usage : setting;
}

/*
 * effective - a domain's share of its parent's effective protection
 * parent_e: its claim, scaled down in proportion when its siblings'
 * claims together (siblings, its own included) pass parent_e. Counted
 * in pages, so that the product cannot overflow; siblings is rounded
 * up, so the divisor is at least one page.
 */
static int64_t effective(int64_t usage, int64_t setting, int64_t parent_e,
			 int64_t siblings)
{
	uint64_t own = (uint64_t)claim(usage, setting) / PAGE_SIZE;
	uint64_t all = ((uint64_t)siblings + PAGE_SIZE - 1) / PAGE_SIZE;

	if (siblings <= parent_e)
		return (int64_t)(own * PAGE_SIZE);
	return (int64_t)(own * ((uint64_t)parent_e / PAGE_SIZE) / all *
			 PAGE_SIZE);
}

bool memcg_protection_begin(struct mem_cgroup *root)
{
	struct mem_cgroup *pos;

	if (!READ_ONCE(protection_used))
		return false;
	memcg_tree_lock();
	/* The children's claims, added up in each parent. The walk is in
	 * preorder: a parent is cleared before its children add to it. */
	for_each_mem_cgroup_tree(pos, root) {
		int64_t usage = res_counter_usage(&pos->res);

		pos->v2.children_min = pos->v2.children_low = 0;
		if (pos == root)
			continue;
		pos->parent->v2.children_min += claim(usage, pos->v2.min);
		pos->parent->v2.children_low += claim(usage, pos->v2.low);
	}
	/* Then each domain's share, a parent's before its children's. */
	for_each_mem_cgroup_tree(pos, root) {
		struct mem_cgroup *parent = pos->parent;
		int64_t usage = res_counter_usage(&pos->res);

		if (pos == root)
			continue;
		if (parent == root) {
			WRITE_ONCE(pos->v2.emin, pos->v2.min);
			WRITE_ONCE(pos->v2.elow, pos->v2.low);
			continue;
		}
		WRITE_ONCE(pos->v2.emin,
			   effective(usage, pos->v2.min, parent->v2.emin,
				     parent->v2.children_min));
		WRITE_ONCE(pos->v2.elow,
			   effective(usage, pos->v2.low, parent->v2.elow,
				     parent->v2.children_low));
	}
	memcg_tree_unlock();
	return true;
}

enum memcg_protected memcg_protected(struct mem_cgroup *root,
				     struct mem_cgroup *memcg)
{
	int64_t usage;

	if (memcg == root)
		return MEMCG_UNPROTECTED;
	usage = res_counter_usage(&memcg->res);
	if (usage <= READ_ONCE(memcg->v2.emin))
		return MEMCG_PROTECTED_MIN;
	if (usage <= READ_ONCE(memcg->v2.elow))
		return MEMCG_PROTECTED_LOW;
	return MEMCG_UNPROTECTED;
}

void memcg_protection_breach(struct mem_cgroup *root)
{
	struct mem_cgroup *pos;

	memcg_tree_lock();
	for_each_mem_cgroup_tree(pos, root)
		if (memcg_protected(root, pos) == MEMCG_PROTECTED_LOW)
			memcg_v2_event(pos, MEMCG_LOW, 1);
	memcg_tree_unlock();
}
