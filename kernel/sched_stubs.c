/*
 * kernel/sched_stubs.c - TEMPORARY: what the tasks issue provides, before
 * it lands (no tasks yet: nothing to find, kill or wait for). The tasks
 * issue deletes this file.
 */
#include <stddef.h>

#include "kernel/platform.h"
#include "kernel/task_ops.h"

void preempt_schedule(void)
{
	this_cpu()->need_resched = 0;
}

struct task *task_get(int pid)
{
	return NULL;
}

void task_put(struct task *task)
{
}

void task_kill(struct task *task)
{
}

bool task_kill_pending(const struct task *task)
{
	return false;
}

void oom_wait(void)
{
	__asm__ volatile("sti\n\thlt");
}

void oom_wake_all(void)
{
}
