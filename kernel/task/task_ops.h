/* SPDX-License-Identifier: MIT */
/*
 * kernel/task/task_ops.h - what the domain code needs from the tasks code.
 *
 * mm/memcg/memcontrol.c, mm/memcg/memcg_oom.c and kernel/cgroup/cgroupfs.c keep
 * each domain's list of tasks themselves (task->memcg, task->memcg_node), but
 * finding a task by PID, killing one and sleeping belong to the tasks code
 * (kernel/sched/task_table.c, fork.c, exit.c, kernel/sched/sched.c). These are
 * the calls it provides. On the host, tests/unit/host_tasks.c provides them for
 * the unit tests and the fuzzer.
 *
 * In the other direction, the tasks code calls (mm/memcg/memcontrol.h):
 *   mem_cgroup_attach_task()  for a task started by `run` or at boot,
 *   mem_cgroup_fork_task()    in fork, before the child runs,
 *   mem_cgroup_exit_task()    when a task exits (frees its user memory),
 *   memcg_account_kernel_stack(stack, +1 / -1) after allocating a stack
 *                             and before freeing it (memory.stat),
 *   mem_cgroup_task_path()    for ps's DOMAIN column;
 * and (mm/memcg/user_memory.h) user_memory_alloc() from the `hog` and `cache`
 * programs; and (kernel/cgroup/cgroupfs.h) cgroupfs_get_domain() for `run`.
 */
#ifndef KERNEL_TASK_OPS_H
#define KERNEL_TASK_OPS_H

#include <stdbool.h>

struct task;

/*
 * task_get - the task with this PID, with a reference: it is not freed
 * until task_put(), though it may exit meanwhile. NULL if there is none
 * (or it has been reaped). Called from control-file handlers, which hold
 * ctl_lock (a spinlock): must not sleep.
 */
struct task *task_get(int pid);

/* task_put - drop the reference task_get() took. */
void task_put(struct task *task);

/*
 * task_kill - kill task: it exits at its next preemption point or return
 * to the scheduler, and its exit calls mem_cgroup_exit_task().
 * Asynchronous: returns at once. Called with memcg_tree_lock held (and
 * from any CPU): must not sleep and must not take memcg_tree_lock. Killing
 * a task that is already killed or exiting does nothing. Never called
 * for a TASK_SYSTEM task.
 */
void task_kill(struct task *task);

/*
 * task_kill_pending - has task been killed (task_kill) and not yet exited?
 * A task that is exiting counts as killed. Any context, no locks.
 */
bool task_kill_pending(const struct task *task);

/*
 * task_set_freezing - task's cgroup has just become frozen (true) or
 * thawed (false), or task has entered a cgroup that is or is not: it
 * stops at its next chance and sleeps until thawed (kernel/sched/
 * freezer.c), or, thawed, goes on. Called with memcg_tree_lock held:
 * never sleeps. Nothing for a TASK_SYSTEM task.
 */
void task_set_freezing(struct task *task, bool freezing);

/*
 * task_stopped - is task running none of its program, and unable to until
 * it is woken: asleep in the freezer or anywhere else, or not started?
 * A snapshot, for cgroup.events' frozen. Any context.
 */
bool task_stopped(const struct task *task);

/*
 * oom_wait - the current task waits in a domain's OOM: sleep until
 * oom_wake_all() is called or a short time (a few ticks) has passed,
 * whichever is first. May return at once. Called without locks held, from
 * task context. The caller re-checks and calls again.
 */
void oom_wait(void);

/*
 * oom_wake_all - wake every task sleeping in oom_wait(): memory was freed
 * or a limit raised. Any context, with spinlocks held.
 */
void oom_wake_all(void);

#endif
