/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcg_oom.h - the domain OOM killer, for user memory only
 * (docs/interface.md; Linux 2012: mem_cgroup_handle_oom,
 * mem_cgroup_out_of_memory).
 *
 * Kernel charges never come here: a kernel allocation over its domain's
 * limit fails instead (fork returns ENOMEM), which is how a fork bomb is
 * contained without killing anything.
 */
#ifndef MM_MEMCG_OOM_H
#define MM_MEMCG_OOM_H

#include <stdbool.h>

#include "kernel/task/task_ops.h"

struct mem_cgroup;

/* Tasks waiting in some domain's OOM (mm/memcg/memcg_oom.c). */
extern int memcg_oom_waiters;

/*
 * mem_cgroup_oom - memcg refused a user charge, and reclaim could not
 * help. With oom_kill_disable, the current task waits (under_oom 1) for
 * memory to be freed or the limit to be raised. Else the task of memcg's
 * subtree with the most user memory is killed - every task is eligible,
 * also one that holds none yet; on a tie, the youngest - unless one killed
 * before is still on its way out, and the current task waits for it to
 * exit. The victim's domain counts the kill (oom_kill).
 *
 * Returns 0: try the charge again; -ENOMEM: give up (the current task is
 * the one killed, or the subtree has no task to kill).
 */
int mem_cgroup_oom(struct mem_cgroup *memcg);

/*
 * memcg_oom_recover - memory was uncharged from memcg, or its limit
 * raised: wake the tasks waiting in an OOM (cheap when there are none).
 */
static inline void memcg_oom_recover(struct mem_cgroup *memcg)
{
	(void)memcg;
	if (__atomic_load_n(&memcg_oom_waiters, __ATOMIC_RELAXED))
		oom_wake_all();
}

/* mem_cgroup_under_oom - memory.oom_control's under_oom: does a task wait
 * in the OOM of memcg or of a domain whose counters include memcg's? */
bool mem_cgroup_under_oom(struct mem_cgroup *memcg);

#endif
