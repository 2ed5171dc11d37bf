/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/exit.h - how tasks end: exit, the reaper that frees what a dead
 * task cannot free itself, and wait.
 *
 * A task cannot free the stack it is running on. So task_exit() frees
 * what it holds (its program's allocations, its user memory), leaves its
 * domain and becomes a zombie; its last switch hands it to the reaper
 * (reaper_take, from the next task on that CPU), a system task that frees
 * the stack. The zombie itself - the struct, with its PID and WORK - stays
 * for `wait` to reap, unless nobody will wait for it: tasks made by fork,
 * the shell's jobs (which the reaper reaps for the shell and reports to it,
 * as SIGCHLD tells a Unix shell), and tasks killed by cgroup.kill or the
 * OOM killer, are reaped by the reaper at once.
 *
 * That nobody will wait may be learnt after the reaper has passed a task:
 * a task killed (task_kill) by PID once it has exited, or one whose
 * waiter is killed while waiting. Its death and the news come in either
 * order, so each sets its bit in task->reap_state with one atomic OR, and
 * whichever comes second reaps: the reaper, or task_set_unwaited().
 */
#ifndef KERNEL_EXIT_H
#define KERNEL_EXIT_H

#include <stddef.h>

struct task;

/* task_exit - the current task ends. Never returns. */
_Noreturn void task_exit(void);

/*
 * exited_stacks_unfreed - tasks that have begun to exit (and so left
 * their domains) whose stacks the reaper has not freed yet. A domain
 * nobody charges for its tasks' stacks can be removed meanwhile; what
 * reads MemFree after killing such a domain's tasks (`demo stop`,
 * `contain`) waits for this to reach 0. A snapshot.
 */
unsigned int exited_stacks_unfreed(void);

/* reaper_take - task has switched away for the last time (called by the
 * scheduler with interrupts off). */
void reaper_take(struct task *task);

/* reaper_start - create the reaper task (start_kernel_services). */
void reaper_start(void);

/*
 * task_wait - wait until the task with this PID has exited and its stack
 * is freed, and reap it. Returns 0, -ESRCH if there is no such task (or
 * it has been reaped), -EPERM for a system task (they never exit),
 * -EINTR if the waiting task is killed first (task is then unwaited: the
 * reaper reaps it).
 */
int task_wait(int pid);

/*
 * task_set_unwaited - nobody will `wait` for task: reap it as soon as it
 * is dead and its stack freed. Any time, from any task holding a
 * reference (or memcg_tree_lock with task still in its domain); if the
 * reaper has passed it already, it is reaped here, at once. Never sleeps.
 */
void task_set_unwaited(struct task *task);

/*
 * reaper_check - `check`'s look at the reaper's invariant: every task that
 * has exited and whose stack is not freed is on the reaper's list, or
 * switching away for the last time on its way there. One that is neither,
 * looked at twice a second apart, is lost: its stack, and its domain's
 * charge for it, would never be freed. Writes one line per lost task into
 * buf (NUL-terminated) and returns how many. Sleeps.
 */
int reaper_check(char *buf, size_t size);

#endif
