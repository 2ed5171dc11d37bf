// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_oom.c - the domain OOM killer (Linux 2012:
 * mem_cgroup_handle_oom, mem_cgroup_out_of_memory, memcg_oom_recover).
 *
 * A user charge that reclaim cannot make room for ends here. The choice is
 * Linux's, simplified: every task of the over-limit domain's subtree (but
 * system tasks) is a candidate, scored by its user memory plus one (badness),
 * so that a task holding none yet can be chosen too; the highest score dies,
 * the youngest task on a tie, and the charging task waits for its memory. Each
 * kill is counted in the victim's domain (memory.oom_control's oom_kill). While
 * a task killed earlier is still on its way out, nobody else is killed (Linux:
 * TIF_MEMDIE). With oom_kill_disable the charging task only waits, and
 * memory.oom_control shows under_oom 1, until memory is freed or the limit
 * raised.
 */
#include "mm/memcg/memcg_oom.h"

#include <errno.h>

#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "mm/memcg/memcontrol.h"
#include "mm/page.h"

/* Tasks waiting in some domain's OOM: uncharges wake them if any
 * (memcg_oom_recover, inline in mm/memcg/memcg_oom.h). */
int memcg_oom_waiters;

bool mem_cgroup_under_oom(struct mem_cgroup *memcg)
{
	for (struct res_counter *c = &memcg->res; c; c = c->parent)
		if (__atomic_load_n(&mem_cgroup_from_res(c)->under_oom,
				    __ATOMIC_RELAXED))
			return true;
	return false;
}

/* memcg_oom_wait - wait once (a few ticks, or until woken) in memcg's
 * OOM, showing under_oom meanwhile. */
static void memcg_oom_wait(struct mem_cgroup *memcg)
{
	__atomic_add_fetch(&memcg->under_oom, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&memcg_oom_waiters, 1, __ATOMIC_RELAXED);
	oom_wait();
	__atomic_sub_fetch(&memcg_oom_waiters, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&memcg->under_oom, 1, __ATOMIC_RELAXED);
}

/*
 * badness - how much killing task would give back: its user pages, plus
 * one. The one makes every task a candidate, also one that holds no user
 * memory yet (Linux gives every eligible task a score of at least 1): a
 * task that is refused its very first page under a limit of 0 must be
 * killable, or it would wait for ever.
 */
static unsigned long badness(const struct task *task)
{
	return READ_ONCE(task->user_pages) + 1;
}

/*
 * worse - should task be killed rather than the victim chosen so far?
 * The higher badness loses. On a tie the younger task loses (the later
 * birth): as Linux, whose scan takes the last of equal scores, and it has
 * done the least work.
 */
static bool worse(const struct task *task, unsigned long points,
		  const struct task *victim, unsigned long victim_points)
{
	if (!victim || points != victim_points)
		return points > victim_points;
	return task->birth > victim->birth;
}

int mem_cgroup_oom(struct mem_cgroup *memcg)
{
	struct task *victim = NULL, *task;
	unsigned long victim_points = 0, victim_pages = 0;
	bool exiting = false;
	struct mem_cgroup *pos;
	char path[MEMCG_PATH_MAX];
	int pid = 0;

	if (READ_ONCE(memcg->oom_kill_disable)) {
		memcg_oom_wait(memcg);
		return 0;
	}

	memcg_tree_lock();
	for_each_mem_cgroup_tree(pos, memcg) {
		list_for_each_entry(task, &pos->tasks, memcg_node) {
			unsigned long points;

			if (task->flags & TASK_SYSTEM)
				continue;
			if (task_kill_pending(task)) {
				exiting = true;
				continue;
			}
			points = badness(task);
			if (worse(task, points, victim, victim_points)) {
				victim = task;
				victim_points = points;
			}
		}
	}
	if (!exiting && victim) {
		victim_pages = victim_points - 1;
		task_kill(victim);
		pid = victim->pid;
		/* Counted where Linux counts it: in the victim's domain. */
		__atomic_add_fetch(&victim->memcg->oom_kill, 1,
				   __ATOMIC_RELAXED);
	}
	memcg_tree_unlock();

	if (exiting) {
		/* A victim is on its way out: wait for its memory. */
		memcg_oom_wait(memcg);
		return 0;
	}
	if (!victim)
		return -ENOMEM;  /* no task in the subtree: nothing to kill */

	mem_cgroup_path(memcg, path, sizeof(path));
	printk("memcg: %s: out of memory: killed task %d (%lu KiB of user "
	       "memory)\n", path, pid, victim_pages * (PAGE_SIZE / 1024));
	if (victim == current)
		return -ENOMEM;
	memcg_oom_wait(memcg);
	return 0;
}
