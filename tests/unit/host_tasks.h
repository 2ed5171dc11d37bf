/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/host_tasks.h - kernel/task/task_ops.h for host programs: a
 * table of tasks the test registers, kills that are only recorded, and an
 * OOM wait that calls back into the test.
 */
#ifndef TESTS_UNIT_HOST_TASKS_H
#define TESTS_UNIT_HOST_TASKS_H

#include <stdbool.h>

#include "kernel/task/task.h"

#define HOST_MAX_TASKS 256

/* host_task_register - make task findable by task_get(task->pid). */
void host_task_register(struct task *task);
void host_task_unregister(struct task *task);
/* host_task_unregister_all - forget every task (between tests). */
void host_task_unregister_all(void);

/* host_task_killed - has task_kill(task) been called (since the last
 * host_task_clear_killed)? */
bool host_task_killed(const struct task *task);
void host_task_clear_killed(struct task *task);
/* How many task_kill() calls so far. */
extern int host_tasks_killed;

/* host_kill_hook: if set, task_kill() calls it too (a test can make the
 * task "exit" there: mem_cgroup_exit_task must not be called from it, as
 * task_kill runs under memcg_tree_lock). */
extern void (*host_kill_hook)(struct task *task);

/*
 * host_oom_wait_hook: called by oom_wait(). Without it, oom_wait() panics
 * after HOST_OOM_WAIT_LIMIT calls (a test that would otherwise wait
 * forever). host_oom_waits and host_oom_wakes count the calls.
 */
#define HOST_OOM_WAIT_LIMIT 1000
extern void (*host_oom_wait_hook)(void);
extern int host_oom_waits, host_oom_wakes;

/* What cgroup_fork_register() was given (kernel/sched/fork.h), if
 * anything: on the host, no start-up code runs it. */
struct cgroup_fork_ops;
extern const struct cgroup_fork_ops *host_cgroup_fork_ops;

#endif
