// SPDX-License-Identifier: MIT
/*
 * tests/unit/host_tasks.c - the calls of kernel/task/task_ops.h for host
 * programs (unit tests, fuzzers): the tasks are the test's own struct
 * task objects, registered in a small table.
 */
#include "tests/unit/host_tasks.h"

#include <stdlib.h>

#include "kernel/base/platform.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/fork.h"
#include "kernel/sched/task_table.h"
#include "kernel/task/task_ops.h"

static struct task *tasks[HOST_MAX_TASKS];
static bool killed[HOST_MAX_TASKS];
int host_tasks_killed;
void (*host_kill_hook)(struct task *task);
void (*host_oom_wait_hook)(void);
int host_oom_waits, host_oom_wakes;

static int slot_of(const struct task *task)
{
	for (int i = 0; i < HOST_MAX_TASKS; i++)
		if (tasks[i] == task)
			return i;
	return -1;
}

void host_task_register(struct task *task)
{
	int i = slot_of(NULL);

	if (i < 0)
		panic("host_task_register: more than %d tasks", HOST_MAX_TASKS);
	tasks[i] = task;
	killed[i] = false;
}

void host_task_unregister(struct task *task)
{
	int i = slot_of(task);

	if (i >= 0) {
		tasks[i] = NULL;
		killed[i] = false;
	}
}

void host_task_unregister_all(void)
{
	for (int i = 0; i < HOST_MAX_TASKS; i++) {
		tasks[i] = NULL;
		killed[i] = false;
	}
}

bool host_task_killed(const struct task *task)
{
	int i = slot_of(task);

	return i >= 0 && killed[i];
}

void host_task_clear_killed(struct task *task)
{
	int i = slot_of(task);

	if (i >= 0)
		killed[i] = false;
}

struct task *task_get(int pid)
{
	for (int i = 0; i < HOST_MAX_TASKS; i++)
		if (tasks[i] && tasks[i]->pid == pid)
			return tasks[i];
	return NULL;
}

void task_put(struct task *task)
{
}

void task_kill(struct task *task)
{
	int i = slot_of(task);

	if (task->flags & TASK_SYSTEM)
		panic("task_kill: task %d is a system task", task->pid);
	if (i >= 0)
		killed[i] = true;
	host_tasks_killed++;
	if (host_kill_hook)
		host_kill_hook(task);
}

bool task_kill_pending(const struct task *task)
{
	return host_task_killed(task);
}

/* The host's tasks never run: a mark is all there is, and a marked task
 * counts as stopped at once. */
void task_set_freezing(struct task *task, bool freezing)
{
	if (!(task->flags & TASK_SYSTEM))
		task->freezing = freezing;
}

bool task_stopped(const struct task *task)
{
	return task->freezing;
}

void oom_wait(void)
{
	host_oom_waits++;
	if (host_oom_wait_hook) {
		host_oom_wait_hook();
		return;
	}
	if (host_oom_waits > HOST_OOM_WAIT_LIMIT)
		panic("oom_wait: waited %d times: nothing will free memory",
		      host_oom_waits);
}

void oom_wake_all(void)
{
	host_oom_wakes++;
}

/* --- kernel/sched/fork.h and task_table.h, the parts kernel/cgroup uses --- */

const struct cgroup_fork_ops *host_cgroup_fork_ops;

void cgroup_fork_register(const struct cgroup_fork_ops *ops)
{
	host_cgroup_fork_ops = ops;
}

struct task **task_snapshot(size_t *nr)
{
	struct task **all = malloc(sizeof(*all) * HOST_MAX_TASKS);
	size_t n = 0;

	if (!all) {
		*nr = 0;
		return NULL;
	}
	for (int i = 0; i < HOST_MAX_TASKS; i++)
		if (tasks[i])
			all[n++] = tasks[i];
	*nr = n;
	return all;
}

void task_snapshot_put(struct task **all, size_t nr)
{
	free(all);
}

/* A host test's tasks never exit through a reaper (kernel/sched/exit.c is
 * the kernel's alone): none can be lost on the way to one. */
int reaper_check(char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	return 0;
}
