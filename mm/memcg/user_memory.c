// SPDX-License-Identifier: MIT
/*
 * mm/memcg/user_memory.c - user pages: allocated for tasks, charged to res
 * only, reclaimed (cache pages), moved to the parent when a domain is removed,
 * freed when the task exits (docs/interface.md; Linux: the charge of anonymous
 * and page-cache pages, mem_cgroup_charge_common, and the LRU walk of reclaim,
 * reduced to their bones).
 *
 * Each task keeps its user pages on two lists, rss and cache, linked by
 * page->lru; page->memcg is the domain that was charged. The tasks that
 * hold any are on user_memory_tasks. One lock, user_memory_lock, covers
 * all of it. Every change of page->memcg, and the uncharge of a page, is
 * made under that lock: that is what lets a removed domain's pages all be
 * moved to its parent before it can be freed.
 */
#include "mm/memcg/user_memory.h"

#include <errno.h>

#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "mm/buddy.h"
#include "mm/memcg/memcg_oom.h"
#include "mm/memcg/memcg_protection.h"
#include "mm/memcg/memcontrol.h"

spinlock_t user_memory_lock = SPINLOCK_INIT;
LIST_HEAD(user_memory_tasks);

void user_memory_task_init(struct task *task)
{
	INIT_LIST_HEAD(&task->user_rss);
	INIT_LIST_HEAD(&task->user_cache);
	INIT_LIST_HEAD(&task->user_node);
	task->user_pages = 0;
}

unsigned long user_memory_task_pages(struct task *task)
{
	return READ_ONCE(task->user_pages);
}

/* User pages of every domain: the sum of their rss and cache counts,
 * kept as they change (for the root's usage, without a walk). */
static unsigned long user_pages_all;

unsigned long user_memory_pages(void)
{
	return READ_ONCE(user_pages_all);
}

/* stat_add - a domain's rss or cache count; user_memory_lock held. */
static void stat_add(struct mem_cgroup *memcg, bool cache, long pages)
{
	WRITE_ONCE(user_pages_all, user_pages_all + pages);
	if (cache)
		WRITE_ONCE(memcg->nr_cache, memcg->nr_cache + pages);
	else
		WRITE_ONCE(memcg->nr_rss, memcg->nr_rss + pages);
}

/* --- moving charges to the parent ----------------------------------------- */

/* move_target - where a removed domain's user charges go: the parent if
 * its counters include ours (use_hierarchy), else the root. */
static struct mem_cgroup *move_target(struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent = parent_mem_cgroup(memcg);

	return parent ? parent : root_mem_cgroup;
}

/*
 * move_page_charge - the page's charge goes from its domain to
 * move_target. The parent was charged with the child (use_hierarchy), so
 * only the counters below it give the page back; the root never was, so
 * then the child's own counter does. user_memory_lock held.
 */
static void move_page_charge(struct page *page, bool cache)
{
	struct mem_cgroup *from = page->memcg, *to = move_target(from);

	res_counter_uncharge_until(&from->res,
				   mem_cgroup_is_root(to) ? NULL : &to->res,
				   PAGE_SIZE);
	stat_add(from, cache, -1);
	stat_add(to, cache, 1);
	page->memcg = to;
}

/* settle_page - a page charged to a removed domain moves up until its
 * domain is a live one. user_memory_lock held. */
static void settle_page(struct page *page, bool cache)
{
	while (__atomic_load_n(&page->memcg->dying, __ATOMIC_ACQUIRE))
		move_page_charge(page, cache);
}

void user_memory_move_parent(struct mem_cgroup *memcg)
{
	struct task *task;
	struct page *page;

	spin_lock(&user_memory_lock);
	list_for_each_entry(task, &user_memory_tasks, user_node) {
		list_for_each_entry(page, &task->user_rss, lru) {
			if (page->memcg == memcg) {
				move_page_charge(page, false);
				settle_page(page, false);
			}
		}
		list_for_each_entry(page, &task->user_cache, lru) {
			if (page->memcg == memcg) {
				move_page_charge(page, true);
				settle_page(page, true);
			}
		}
	}
	spin_unlock(&user_memory_lock);
}

/* --- giving pages back ---------------------------------------------------- */

/*
 * take_page - unlink a page from its task and uncharge it; it goes on
 * the caller's list, to be freed once the lock is dropped.
 * user_memory_lock held.
 */
static void take_page(struct task *task, struct page *page, bool cache,
		      struct list_head *doomed)
{
	struct mem_cgroup *memcg = page->memcg;

	list_del_init(&page->lru);
	list_add(&page->lru, doomed);
	task->user_pages--;
	stat_add(memcg, cache, -1);
	mem_cgroup_uncharge(memcg, 1);
}

/* free_doomed - free the pages take_page() collected. */
static void free_doomed(struct list_head *doomed)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, doomed, lru) {
		list_del_init(&page->lru);
		page->memcg = NULL;
		page->flags &= ~PG_user;
		free_pages(page, 0);
	}
}

void user_memory_task_exit(struct task *task)
{
	struct page *page, *next;
	LIST_HEAD(doomed);

	if (!task->user_node.next)
		return;  /* never set up: it never had user memory */
	spin_lock(&user_memory_lock);
	list_for_each_entry_safe(page, next, &task->user_rss, lru)
		take_page(task, page, false, &doomed);
	list_for_each_entry_safe(page, next, &task->user_cache, lru)
		take_page(task, page, true, &doomed);
	if (!list_empty(&task->user_node))
		list_del_init(&task->user_node);
	spin_unlock(&user_memory_lock);
	free_doomed(&doomed);
}

/*
 * reclaim_pass - drop cache pages of root's subtree, up to nr_pages, as
 * memory.min and memory.low allow when protection is on: never from a
 * domain at its effective min; from one at its effective low only if
 * breach (else *low_skipped says one was passed over). Returns how many
 * were dropped.
 */
static unsigned long reclaim_pass(struct mem_cgroup *root,
				  unsigned long nr_pages, bool protection,
				  bool breach, bool *low_skipped)
{
	unsigned long reclaimed = 0;
	struct page *page, *next;
	struct task *task;
	LIST_HEAD(doomed);

	spin_lock(&user_memory_lock);
	list_for_each_entry(task, &user_memory_tasks, user_node) {
		list_for_each_entry_safe(page, next, &task->user_cache, lru) {
			struct mem_cgroup *memcg = page->memcg;

			/* In the subtree: charged to root's counter. The
			 * root domain's is never charged, and every page is
			 * in its subtree. */
			if (!mem_cgroup_is_root(root) &&
			    !res_counter_is_ancestor(&memcg->res, &root->res))
				continue;
			if (protection) {
				enum memcg_protected p =
					memcg_protected(root, memcg);

				if (p == MEMCG_PROTECTED_MIN)
					continue;
				if (p == MEMCG_PROTECTED_LOW && !breach) {
					*low_skipped = true;
					continue;
				}
			}
			take_page(task, page, true, &doomed);
			if (++reclaimed >= nr_pages)
				goto out;
		}
	}
out:
	spin_unlock(&user_memory_lock);
	free_doomed(&doomed);
	return reclaimed;
}

unsigned long user_memory_reclaim(struct mem_cgroup *memcg,
				  unsigned long nr_pages)
{
	bool protection = memcg_protection_begin(memcg);
	bool low_skipped = false;
	unsigned long reclaimed;

	reclaimed = reclaim_pass(memcg, nr_pages, protection, false,
				 &low_skipped);
	/* Short, with pages that only memory.low kept: take those too
	 * (Linux's second pass, memcg_low_reclaim). */
	if (reclaimed < nr_pages && low_skipped) {
		memcg_protection_breach(memcg);
		reclaimed += reclaim_pass(memcg, nr_pages - reclaimed, true,
					  true, &low_skipped);
	}
	return reclaimed;
}

/* --- allocating ----------------------------------------------------------- */

/*
 * user_memory_charge - charge one page to memcg, as hard as user memory
 * is charged: mem_cgroup_try_charge (stock, drain, reclaim, retries),
 * then the OOM killer, again and again while it says to retry.
 */
static int user_memory_charge(struct task *task, struct mem_cgroup *memcg)
{
	struct mem_cgroup *over_limit;

	for (;;) {
		if (mem_cgroup_try_charge(memcg, GFP_KERNEL, 1,
					  &over_limit) == 0)
			return 0;
		/* A killed task gives up: its exit frees what it holds. */
		if (task_kill_pending(task))
			return -ENOMEM;
		/* cgroup v2's OOM killer scores kernel pages too. */
		if (cgroup_v2) {
			if (!memcg_v2_charge_refused(memcg, GFP_KERNEL, 1))
				return -ENOMEM;
			continue;
		}
		if (mem_cgroup_oom(over_limit) < 0)
			return -ENOMEM;
	}
}

/* user_page_add - the page is the task's, charged to memcg. */
static void user_page_add(struct task *task, struct mem_cgroup *memcg,
			  struct page *page, bool cache)
{
	spin_lock(&user_memory_lock);
	page->memcg = memcg;
	page->flags |= PG_user;
	list_add_tail(&page->lru, cache ? &task->user_cache : &task->user_rss);
	stat_add(memcg, cache, 1);
	task->user_pages++;
	if (list_empty(&task->user_node))
		list_add_tail(&task->user_node, &user_memory_tasks);
	/* memcg may have been removed since it was charged. */
	settle_page(page, cache);
	spin_unlock(&user_memory_lock);
}

int user_memory_alloc(unsigned long nr_pages, enum user_page_kind kind)
{
	struct task *task = current;
	bool cache = kind == USER_CACHE;

	if (!task)
		return -EINVAL;
	for (unsigned long i = 0; i < nr_pages; i++) {
		struct mem_cgroup *memcg;
		struct page *page;
		int ret;

		/* Above memory.high: pay for it first, and again every batch
		 * of pages of a long allocation, as Linux handles memory.high
		 * within a charge once a batch is over it. */
		if (i % MEMCG_HIGH_BATCH == 0)
			memcg_v2_throttle();
		if (task_kill_pending(task))
			return -ENOMEM;
		/* The task's domain now (it may be moved between pages). A
		 * system task is charged to nobody: the root. */
		if (task->flags & TASK_SYSTEM) {
			memcg = root_mem_cgroup;
			mem_cgroup_get(memcg);
		} else {
			memcg = mem_cgroup_from_task_get(task);
		}
		ret = user_memory_charge(task, memcg);
		if (ret == 0) {
			page = alloc_pages(GFP_KERNEL | __GFP_ZERO |
					   __GFP_NOWARN, 0);
			if (page) {
				user_page_add(task, memcg, page, cache);
			} else {
				mem_cgroup_uncharge(memcg, 1);
				ret = -ENOMEM;
			}
		}
		mem_cgroup_put(memcg);
		if (ret)
			return ret;
	}
	return 0;
}
