// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_v2_oom.c - cgroup v2's OOM killer (Linux:
 * mem_cgroup_out_of_memory, oom_badness, mem_cgroup_get_oom_group in
 * mm/oom_kill.c and mm/memcontrol.c).
 *
 * The 2012 design's killer (mm/memcg/memcg_oom.c) is asked only by user
 * charges and scores user pages. v2's is asked by every charge, kernel
 * ones first of all - a fork bomb's stacks - so it scores what a task has
 * charged of both kinds: its user pages and its kernel stack. A fork bomb
 * whose tasks hold nothing else scores all alike; the youngest dies, as
 * in Linux's scan, which keeps the last of equal scores.
 *
 * oom_score_adj moves a score by thousandths of the domain's limit (of
 * the machine's memory when there is none), as Linux's does of the
 * memory the OOM may reclaim; -1000 makes a task immune.
 */
#include "mm/memcg/memcg_v2_oom.h"

#include <limits.h>

#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "kernel/time/time.h"
#include "mm/buddy.h"
#include "mm/memcg/memcg_v2.h"
#include "mm/memcg/memcontrol.h"
#include "mm/page.h"

/* The pages every task has charged to the kernel: its stack. */
#define TASK_KERNEL_PAGES (THREAD_SIZE / PAGE_SIZE)

/* limit_pages - what oom_score_adj's thousandths are of. */
static long limit_pages(struct mem_cgroup *oom)
{
	int64_t limit = READ_ONCE(oom->res.limit);

	if (limit == RES_COUNTER_MAX)
		return (long)totalram_pages;
	return (long)(limit / PAGE_SIZE);
}

/* task_charged_pages - what killing task gives back, as far as known:
 * its user pages and its kernel stack. */
static long task_charged_pages(const struct task *task)
{
	return (long)READ_ONCE(task->user_pages) + TASK_KERNEL_PAGES;
}

/*
 * badness - task's score, or LONG_MIN if it may not be killed (a system
 * task, or oom_score_adj -1000). At least 1 for any other: a task whose
 * adjustment takes it below zero is still a candidate, as in Linux.
 */
static long badness(const struct task *task, long limit)
{
	int adj = READ_ONCE(task->oom_score_adj);
	long points;

	if ((task->flags & TASK_SYSTEM) || adj == OOM_SCORE_ADJ_MIN)
		return LONG_MIN;
	points = task_charged_pages(task) + (long)adj * limit / 1000;
	return points > 0 ? points : 1;
}

/*
 * pick_victim - the task of oom's subtree to kill: the highest score,
 * the youngest of equal ones; NULL if none may be. *exiting: a task
 * already killed is still in the subtree (Linux aborts its scan then,
 * and waits for that victim instead of taking a second one).
 * memcg_tree_lock held.
 */
static struct task *pick_victim(struct mem_cgroup *oom, bool *exiting)
{
	long limit = limit_pages(oom), best = LONG_MIN;
	struct task *victim = NULL, *task;
	struct mem_cgroup *pos;

	*exiting = false;
	for_each_mem_cgroup_tree(pos, oom) {
		list_for_each_entry(task, &pos->tasks, memcg_node) {
			long points = badness(task, limit);

			if (points == LONG_MIN)
				continue;
			if (task_kill_pending(task)) {
				*exiting = true;
				continue;
			}
			if (points > best ||
			    (points == best && task->birth > victim->birth)) {
				victim = task;
				best = points;
			}
		}
	}
	return victim;
}

/* oom_group_of - the highest domain from victim's up to oom that has
 * memory.oom.group set, or NULL. memcg_tree_lock held. */
static struct mem_cgroup *oom_group_of(struct task *victim,
				       struct mem_cgroup *oom)
{
	struct mem_cgroup *group = NULL;

	for (struct mem_cgroup *m = victim->memcg; m; m = m->parent) {
		if (READ_ONCE(m->v2.oom_group))
			group = m;
		if (m == oom)
			break;
	}
	return group;
}

/* kill_one - kill task and count it in its domain. Tree lock held. */
static void kill_one(struct task *task)
{
	task_kill(task);
	memcg_v2_event(task->memcg, MEMCG_OOM_KILL, 1);
}

/* kill_group - every task of group's subtree that may be killed. */
static void kill_group(struct mem_cgroup *group)
{
	struct mem_cgroup *pos;
	struct task *task;

	for_each_mem_cgroup_tree(pos, group)
		list_for_each_entry(task, &pos->tasks, memcg_node)
			if (badness(task, 1) != LONG_MIN)
				kill_one(task);
	memcg_v2_event(group, MEMCG_OOM_GROUP_KILL, 1);
}

/* report - one line per second at most: a bomb is killed by the
 * hundred, and the console would spend its time on them. */
static void report(struct mem_cgroup *oom, int pid, long pages, bool group)
{
	static uint64_t last;
	char path[MEMCG_PATH_MAX];
	uint64_t now = jiffies;

	if (last && now - last < HZ)
		return;
	last = now;
	mem_cgroup_path(oom, path, sizeof(path));
	printk("memcg: %s: out of memory: killed task %d (%ld KiB charged)%s\n",
	       path, pid, pages * (long)(PAGE_SIZE / 1024),
	       group ? " and its group" : "");
}

enum memcg_v2_oom_result memcg_v2_oom(struct mem_cgroup *oom)
{
	struct mem_cgroup *group = NULL;
	struct task *victim;
	long pages = 0;
	bool exiting;
	int pid = 0;

	memcg_v2_event(oom, MEMCG_OOM, 1);
	memcg_tree_lock();
	victim = pick_victim(oom, &exiting);
	if (!exiting && victim) {
		pid = victim->pid;
		pages = task_charged_pages(victim);
		group = oom_group_of(victim, oom);
		kill_one(victim);
		if (group)
			kill_group(group);
	}
	memcg_tree_unlock();
	if (exiting)
		return MEMCG_V2_OOM_WAIT;
	if (!victim)
		return MEMCG_V2_OOM_NOBODY;
	report(oom, pid, pages, group != NULL);
	return MEMCG_V2_OOM_KILLED;
}

unsigned int memcg_v2_oom_shrink(struct mem_cgroup *oom, int64_t excess)
{
	int64_t freed = 0;
	unsigned int killed = 0;

	while (freed < excess) {
		struct task *victim;
		bool exiting;

		memcg_v2_event(oom, MEMCG_OOM, 1);
		memcg_tree_lock();
		/* Tasks killed already count as freeing their pages: the
		 * scan skips them and goes on to the next. */
		victim = pick_victim(oom, &exiting);
		if (victim) {
			freed += task_charged_pages(victim) * PAGE_SIZE;
			kill_one(victim);
			killed++;
		}
		memcg_tree_unlock();
		if (!victim)
			break;
	}
	return killed;
}
