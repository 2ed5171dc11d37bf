/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/task_table.h - every task by PID, their references, and killing
 * (kernel/sched/task_table.c; the calls the domain code uses are in
 * kernel/task/task_ops.h).
 *
 * PIDs are small integers handed out in increasing order, not reused until
 * they wrap at PID_MAX (then the lowest free one above the system tasks'
 * is taken); PID 0 is each CPU's idle task, which is in no table.
 */
#ifndef KERNEL_TASK_TABLE_H
#define KERNEL_TASK_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/task/task.h"
#include "mm/gfp.h"

#define PID_MAX 32768        /* PIDs are 1 .. PID_MAX - 1 */
#define PID_WRAP_TO 100      /* after a wrap, PIDs start again here */

/* task_cache - the "task_struct" slab cache (task_alloc; the slab
 * benchmarks time it on its own). */
extern struct kmem_cache *task_cache;

/* task_table_init - the "task_struct" slab cache; once, at boot. */
void task_table_init(void);

/*
 * task_alloc - a zeroed struct task from the task_struct cache, with gfp.
 * The cache is accounted (SLAB_ACCOUNT): a task of an accounted domain
 * gets it from the domain's child cache, charged like the stack. NULL if
 * out of memory or over the domain's limit.
 */
struct task *task_alloc(gfp_t gfp);

/* task_free - give back a task that never entered the table. */
void task_free(struct task *task);

/*
 * task_hash - give task a PID and enter it in the table (and on the list
 * ps reads); the table holds a reference until task_release(). Returns
 * the PID, or -EAGAIN if every PID is in use.
 */
int task_hash(struct task *task);

/* task_release - reap: take task out of the table (once; later calls do
 * nothing) and drop the table's reference. */
void task_release(struct task *task);

/* task_hold - one more reference on a task the caller can already reach. */
void task_hold(struct task *task);

/* nr_tasks - tasks in the table (zombies included). */
unsigned int nr_tasks(void);

/*
 * task_kill_user - the shell's `kill PID`: as task_kill(), but the task is
 * reaped as it would have been had it exited by itself: at once by the
 * reaper if nobody waits for it (a fork's child, a shell job), else by its
 * starter's task_wait (the tasks of stress and demo). (task_kill(), from
 * cgroup.kill and the OOM killer, has the reaper reap it at once.)
 */
void task_kill_user(struct task *task);

/* current_killed - has the current task been killed? (System tasks never
 * are.) */
bool current_killed(void);

/* task_set_comm - the task's name, as ps shows it (truncated to fit). */
void task_set_comm(struct task *task, const char *name);

/*
 * The bottom of every kernel stack holds STACK_END_MAGIC; the scheduler
 * checks it at every switch, so that an overflow is reported as one
 * rather than as the corruption it causes.
 */
#define STACK_END_MAGIC 0x57ac6e9d5ca1ab1eull
void task_stack_set_magic(struct task *task);
bool task_stack_intact(const struct task *task);

/*
 * task_snapshot - every task in the table, each with a reference, in PID
 * order of creation: an array from kmalloc, *nr entries (NULL and 0 if out
 * of memory). Give it back with task_snapshot_put().
 */
struct task **task_snapshot(size_t *nr);
void task_snapshot_put(struct task **tasks, size_t nr);

#endif
