/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/freezer.h - where a task of a frozen cgroup stops (the
 * freezer's task side: kernel/sched/freezer.c).
 */
#ifndef KERNEL_SCHED_FREEZER_H
#define KERNEL_SCHED_FREEZER_H

struct task;

/*
 * task_freeze - self, marked freezing (task_set_freezing), sleeps here
 * until it is thawed or killed. Called when the mark is seen at one of
 * the task's own stopping points, where it holds nothing: a preemption
 * point in its program (sched_irq_exit), the return from a kernel
 * service (kernel_leave), its first run (task_entry). Interrupts on, no
 * lock held.
 */
void task_freeze(struct task *self);

#endif
