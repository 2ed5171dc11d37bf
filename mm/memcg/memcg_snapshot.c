// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_snapshot.c - every domain at once, dying ones included,
 * each held by a reference: what memory.stat and `check` walk
 * (mm/memcg/memcg_stat.c), without holding memcg_list_lock meanwhile.
 */
#include "mm/memcg/memcontrol.h"

#include "mm/slab.h"

/* mem_cgroup_tryget - take a reference unless the count is already 0 (the
 * domain is being freed): for walks of memcg_all_list. */
static bool mem_cgroup_tryget(struct mem_cgroup *memcg)
{
	int old = __atomic_load_n(&memcg->refcnt, __ATOMIC_RELAXED);

	do {
		if (old <= 0)
			return false;
	} while (!__atomic_compare_exchange_n(&memcg->refcnt, &old, old + 1,
					      true, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	return true;
}

struct mem_cgroup **mem_cgroup_snapshot(size_t *nr)
{
	struct mem_cgroup **all, *memcg;
	unsigned long flags;
	size_t cap, n;
	bool overflow;

	for (;;) {
		/* Count, allocate (not under the lock), then fill; if domains
		 * were made meanwhile and do not fit, start again. */
		n = 0;
		flags = spin_lock_irqsave(&memcg_list_lock);
		list_for_each_entry(memcg, &memcg_all_list, all_node)
			n++;
		spin_unlock_irqrestore(&memcg_list_lock, flags);
		cap = n + 8;
		all = kmalloc(cap * sizeof(*all), GFP_KERNEL);
		if (!all) {
			*nr = 0;
			return NULL;
		}
		n = 0;
		overflow = false;
		flags = spin_lock_irqsave(&memcg_list_lock);
		list_for_each_entry(memcg, &memcg_all_list, all_node) {
			if (n == cap) {
				overflow = true;
				break;
			}
			if (mem_cgroup_tryget(memcg))
				all[n++] = memcg;
		}
		spin_unlock_irqrestore(&memcg_list_lock, flags);
		if (!overflow) {
			*nr = n;
			return all;
		}
		mem_cgroup_snapshot_put(all, n);
	}
}

void mem_cgroup_snapshot_put(struct mem_cgroup **all, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		mem_cgroup_put(all[i]);
	kfree(all);
}
