/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/fork.h - making tasks: fork (a task copies itself), spawn (`run`
 * starts a program in a domain) and the system tasks.
 *
 * Every new task gets a fresh 16 KiB kernel stack, allocated with
 * THREADINFO_GFP_ACCOUNTED: charged to the domain the task will be in,
 * before the task exists (seL4: an object is paid for by its creator
 * before it is made). When the charge is refused - the domain is at its
 * kmem limit - nothing is made and the caller gets -ENOMEM: that is what
 * contains a fork bomb.
 */
#ifndef KERNEL_FORK_H
#define KERNEL_FORK_H

#include "kernel/task/task.h"

struct mem_cgroup;
struct pids_cgroup;
struct program;
struct task;

/*
 * struct cgroup_fork_ops - what a task-counting controller does at fork
 * and at reap (Linux: a cgroup subsystem's can_fork, cancel_fork, fork and
 * release callbacks). kernel/cgroup/pids.c registers the pids controller
 * at boot: it sits above this layer, so fork and reap call it through
 * these pointers. With none registered, nothing is counted.
 */
struct cgroup_fork_ops {
	/* Before anything is allocated: count one more task in memcg (NULL:
	 * the domain of parent) and every ancestor, all levels or none.
	 * Returns 0 with *charge set (NULL if nothing was counted: the root
	 * domain), or -EAGAIN if a level would pass its limit. */
	int (*can_fork)(struct task *parent, struct mem_cgroup *memcg,
			struct pids_cgroup **charge);
	/* The fork failed before the task got its PID: give the count
	 * back. */
	void (*cancel_fork)(struct pids_cgroup *charge);
	/* The child holds the count (task->pids, set before its PID was
	 * given) and is in its domain, not yet running: move the count to
	 * that domain if it is another (a move raced with the fork). A
	 * task that is reaped, also one never started, gives it back. */
	void (*post_fork)(struct task *child);
	/* The task is reaped: its count goes. */
	void (*release)(struct task *task);
};

/* cgroup_fork_register - install ops (once, at boot, before any fork). */
void cgroup_fork_register(const struct cgroup_fork_ops *ops);

/* cgroup_fork_release - called by task_release() when a task is reaped. */
void cgroup_fork_release(struct task *task);

/*
 * task_fork - a child of parent (the current task): the same program, from
 * its start, with a copy of its argument, in parent's domain, charged to
 * it. Returns the child's PID, -EAGAIN (the pids controller refused: a
 * domain's pids.max), or -ENOMEM (stack or task struct not allocated or
 * not charged; no PID left).
 */
int task_fork(struct task *parent);

/*
 * task_spawn - `run`: a new task running prog with arg (copied; at most
 * TASK_ARG_MAX - 1 bytes) in memcg, its stack and struct charged to memcg.
 * It stays a zombie when it exits, until task_wait() reaps it (the
 * programs that start their own tasks: stress, demo). Returns its PID,
 * -EAGAIN (pids.max), -ENOMEM, or -ENOENT if memcg is being removed.
 */
int task_spawn(struct mem_cgroup *memcg, const struct program *prog,
	       const char *arg);

/*
 * task_spawn_job - as task_spawn, for a starter that does not wait: the
 * shell's `run`. When the task has ended, the reaper reaps it at once (its
 * struct and PID go, and with them the last hold it had on its domain)
 * and then calls on_reap(data, pid, killed) - from the reaper task, with
 * no lock held; it must not sleep - killed telling whether it was killed
 * rather than returning from its program. `wait PID` still works while it
 * runs. Returns its PID, -ENOMEM, or -ENOENT; on_reap is called only if
 * the PID was returned, and may be called before task_spawn_job returns.
 * Errors as task_spawn's.
 */
int task_spawn_job(struct mem_cgroup *memcg, const struct program *prog,
		   const char *arg,
		   void (*on_reap)(void *data, int pid, bool killed),
		   void *data);

/* task_spawn_system - a system task (never charged, never killed) running
 * prog with arg, in the root domain. Returns its PID or -ENOMEM. */
int task_spawn_system(const struct program *prog, const char *arg);

#endif
