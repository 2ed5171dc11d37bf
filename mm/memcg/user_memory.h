/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/user_memory.h - user memory: the pages programs ask for (`hog`,
 * `cache`), charged to res only (docs/interface.md).
 *
 * Two kinds, as Linux's anonymous and page-cache pages:
 *   rss    pages a program uses; not reclaimable (there is no swap);
 *   cache  clean pages, dropped by reclaim when the domain needs room.
 * Each is charged to the domain of the task at the time it is allocated,
 * recorded in the page (page->memcg, PG_user), and held by the task until
 * it exits - or, for cache pages, until reclaim drops them.
 */
#ifndef MM_USER_MEMORY_H
#define MM_USER_MEMORY_H

#include <stdbool.h>

#include "kernel/base/spinlock.h"

struct mem_cgroup;
struct task;

enum user_page_kind {
	USER_RSS,
	USER_CACHE,
};

/* Every task's user pages, and the list of tasks that have some. */
extern spinlock_t user_memory_lock;
extern struct list_head user_memory_tasks;

/* user_memory_task_init - a new task holds no user memory. Called by
 * mem_cgroup_attach_task / mem_cgroup_fork_task. */
void user_memory_task_init(struct task *task);

/*
 * user_memory_alloc - give the current task nr_pages of user memory.
 * @nr_pages: how many pages
 * @kind:     USER_RSS or USER_CACHE
 *
 * Each page is charged to the task's domain, then allocated (zeroed: the
 * program has touched it). In cgroup v2 a domain above memory.high
 * throttles the task first, and every MEMCG_HIGH_BATCH pages. A charge
 * over the limit reclaims cache pages of the domain's subtree, up to
 * MEM_CGROUP_RECLAIM_RETRIES times, then calls the domain's OOM killer
 * (mm/memcg/memcg_oom.c): another task may be killed and this one waits
 * for the memory, or, with oom_kill_disable, it waits until memory is
 * freed or the limit raised. System tasks and tasks in the root are not
 * charged. Task context only; may sleep.
 *
 * Returns 0 when all nr_pages are allocated, or -ENOMEM: this task was
 * chosen by the OOM killer (or has been killed), or no memory is left.
 * The pages allocated before a failure are kept.
 */
int user_memory_alloc(unsigned long nr_pages, enum user_page_kind kind);

/*
 * user_memory_task_exit - free all of task's user memory and uncharge it
 * from the domains that were charged. Called by mem_cgroup_exit_task.
 */
void user_memory_task_exit(struct task *task);

/* user_memory_task_pages - user pages the task holds (rss + cache). */
unsigned long user_memory_task_pages(struct task *task);

/* user_memory_pages - user pages charged to every domain, the root's
 * included (a counter, not a walk of the domains). */
unsigned long user_memory_pages(void);

/*
 * user_memory_reclaim - drop cache pages charged to memcg's subtree (the
 * domains whose res counters are charged to memcg's; for the root, every
 * domain) until nr_pages are dropped or none is left, leaving each domain
 * below memcg what memory.min and memory.low protect
 * (mm/memcg/memcg_protection.c). Returns how many were dropped.
 */
unsigned long user_memory_reclaim(struct mem_cgroup *memcg,
				  unsigned long nr_pages);

/*
 * user_memory_move_parent - force_empty: every user page charged to memcg
 * becomes its parent's (Linux: mem_cgroup_move_parent): the parent if
 * its counters include ours (use_hierarchy), else the root, which is
 * never charged. Pages charged to a removed domain later (a charge that
 * was in flight) are moved as they arrive.
 */
void user_memory_move_parent(struct mem_cgroup *memcg);

#endif
