// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_oom.c - the domain OOM killer (Linux 2012:
 * mem_cgroup_handle_oom, mem_cgroup_out_of_memory, memcg_oom_recover).
 *
 * A user charge that reclaim cannot make room for ends here. The choice
 * is Linux's, simplified: the task of the over-limit domain's subtree
 * that holds the most user memory dies, and the charging task waits for
 * its memory. While a task killed earlier is still on its way out,
 * nobody else is killed (Linux: TIF_MEMDIE). With oom_kill_disable the
 * charging task only waits, and memory.oom_control shows under_oom 1,
 * until memory is freed or the limit raised.
 */
#include "mm/memcg/memcg_oom.h"

#include <errno.h>

#include "kernel/task.h"
#include "kernel/task_ops.h"
#include "mm/memcg/memcontrol.h"
#include "mm/page.h"

/* Tasks waiting in some domain's OOM: uncharges wake them if any. */
static int memcg_oom_waiters;

void memcg_oom_recover(struct mem_cgroup *memcg)
{
	if (__atomic_load_n(&memcg_oom_waiters, __ATOMIC_RELAXED))
		oom_wake_all();
}

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

int mem_cgroup_oom(struct mem_cgroup *memcg)
{
	struct task *victim = NULL, *task;
	unsigned long victim_pages = 0;
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
			unsigned long pages = READ_ONCE(task->user_pages);

			if (task->flags & TASK_SYSTEM)
				continue;
			if (task_kill_pending(task)) {
				exiting = true;
				continue;
			}
			if (pages > victim_pages) {
				victim = task;
				victim_pages = pages;
			}
		}
	}
	if (!exiting && victim) {
		task_kill(victim);
		pid = victim->pid;
	}
	memcg_tree_unlock();

	if (exiting) {
		/* A victim is on its way out: wait for its memory. */
		memcg_oom_wait(memcg);
		return 0;
	}
	if (!victim)
		return -ENOMEM;  /* nothing in the subtree holds user memory */

	mem_cgroup_path(memcg, path, sizeof(path));
	printk("memcg: %s: out of memory: killed task %d (%lu KiB of user "
	       "memory)\n", path, pid, victim_pages * (PAGE_SIZE / 1024));
	if (victim == current)
		return -ENOMEM;
	memcg_oom_wait(memcg);
	return 0;
}
