// SPDX-License-Identifier: MIT
/*
 * kernel/sched/task_table.c - the table of tasks: PIDs, finding a task by PID,
 * references, and killing (see kernel/sched/task_table.h,
 * kernel/task/task_ops.h).
 *
 * The table is a hash of PID chains plus one list of every task in order
 * of creation (for ps), both under tasklist_lock. A task is in the table
 * from fork until it is reaped; a reference (task_get) keeps the struct
 * alive after that, though the task may long have exited.
 */
#include "kernel/sched/task_table.h"

#include <errno.h>
#include <string.h>

#include "kernel/sched/exit.h"
#include "kernel/sched/fork.h"
#include "kernel/sched/sched.h"
#include "kernel/base/spinlock.h"
#include "kernel/task/task_ops.h"
#include "mm/buddy.h"
#include "mm/slab.h"

#define PID_HASH_SIZE 256

struct kmem_cache *task_cache;
static spinlock_t tasklist_lock = SPINLOCK_INIT;
static struct list_head pid_hash[PID_HASH_SIZE];
static LIST_HEAD(all_tasks);
static unsigned int task_count;
static int next_pid = 1;

/* Four tasks to a slab page: at 960 bytes (15 lines) four fit beside the
 * slab's header (struct slab, one line); one byte more rounds each to
 * 1024 bytes, and the cache takes two-page slabs, so that a domain's
 * first task costs it 8 KiB of slab instead of 4 (tests/qemu/tasks.t
 * counts it). Mind the padding between fields before adding one. */
_Static_assert(sizeof(struct task) <= 15 * CACHELINE_SIZE,
	       "struct task fits four to a slab page");

void task_table_init(void)
{
	for (int i = 0; i < PID_HASH_SIZE; i++)
		INIT_LIST_HEAD(&pid_hash[i]);
	/* Cache-line aligned: the FPU area inside must be 16-byte aligned.
	 * Accounted: each domain's tasks come from its own child cache, and
	 * a fork is charged for its struct task as for its stack. */
	task_cache = kmem_cache_create("task_struct", sizeof(struct task),
				       CACHELINE_SIZE,
				       SLAB_HWCACHE_ALIGN | SLAB_PANIC |
					       SLAB_ACCOUNT);
}

struct task *task_alloc(gfp_t gfp)
{
	return kmem_cache_alloc(task_cache, gfp | __GFP_ZERO);
}

void task_free(struct task *task)
{
	kmem_cache_free(task_cache, task);
}

static struct list_head *pid_chain(int pid)
{
	return &pid_hash[(unsigned int)pid % PID_HASH_SIZE];
}

/* find_task - the task with this PID in the table. tasklist_lock held. */
static struct task *find_task(int pid)
{
	struct task *task;

	list_for_each_entry(task, pid_chain(pid), pid_node)
		if (task->pid == pid)
			return task;
	return NULL;
}

int task_hash(struct task *task)
{
	int pid = -EAGAIN;

	spin_lock(&tasklist_lock);
	for (int tries = 0; tries < PID_MAX; tries++) {
		int candidate = next_pid;

		next_pid = next_pid + 1 < PID_MAX ? next_pid + 1 : PID_WRAP_TO;
		if (!find_task(candidate)) {
			pid = candidate;
			break;
		}
	}
	if (pid > 0) {
		task->pid = pid;
		__atomic_add_fetch(&task->refcnt, 1, __ATOMIC_RELAXED);
		list_add_tail(&task->pid_node, pid_chain(pid));
		list_add_tail(&task->all_node, &all_tasks);
		task_count++;
	}
	spin_unlock(&tasklist_lock);
	return pid;
}

void task_release(struct task *task)
{
	if (__atomic_exchange_n(&task->reaped, true, __ATOMIC_ACQ_REL))
		return;
	spin_lock(&tasklist_lock);
	list_del_init(&task->pid_node);
	list_del_init(&task->all_node);
	task_count--;
	spin_unlock(&tasklist_lock);
	cgroup_fork_release(task);  /* reaped: the pids count goes */
	task_put(task);
}

unsigned int nr_tasks(void)
{
	return READ_ONCE(task_count);
}

void task_hold(struct task *task)
{
	__atomic_add_fetch(&task->refcnt, 1, __ATOMIC_RELAXED);
}

struct task *task_get(int pid)
{
	struct task *task;

	spin_lock(&tasklist_lock);
	task = find_task(pid);
	if (task)
		task_hold(task);
	spin_unlock(&tasklist_lock);
	return task;
}

void task_put(struct task *task)
{
	int left = __atomic_sub_fetch(&task->refcnt, 1, __ATOMIC_ACQ_REL);

	if (left > 0)
		return;
	if (left < 0 || task->stack || !task->reaped)
		panic("task_put: task %d (%s): last reference dropped with "
		      "refcnt %d, stack %p, %s",
		      task->pid, task->comm, left, (void *)task->stack,
		      task->reaped ? "reaped" : "not reaped");
	task_free(task);
}

struct task **task_snapshot(size_t *nr)
{
	struct task **tasks = NULL, *task;
	size_t cap = 0, n;

	for (;;) {
		kfree(tasks);
		cap = nr_tasks() + 32;
		tasks = kmalloc(cap * sizeof(*tasks), GFP_KERNEL);
		if (!tasks) {
			*nr = 0;
			return NULL;
		}
		n = 0;
		spin_lock(&tasklist_lock);
		if (task_count <= cap) {
			list_for_each_entry(task, &all_tasks, all_node) {
				task_hold(task);
				tasks[n++] = task;
			}
			spin_unlock(&tasklist_lock);
			break;
		}
		spin_unlock(&tasklist_lock);  /* it grew: try again */
	}
	*nr = n;
	return tasks;
}

void task_snapshot_put(struct task **tasks, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		task_put(tasks[i]);
	kfree(tasks);
}

/* --- killing -------------------------------------------------------------- */

/*
 * __task_kill - mark the task killed and wake it if it sleeps: it exits at
 * its next preemption point (kernel/sched/sched.c sched_irq_exit), or when the
 * kernel service it is in returns (kernel/sched/program.h), or when its sleep
 * ends. Never sleeps; any CPU.
 */
static void __task_kill(struct task *task, bool unwaited)
{
	if (task->flags & TASK_SYSTEM)
		return;
	/* Found by PID, it may have exited already and be a zombie left for
	 * a `wait`: then it is reaped here. (Never so for the callers under
	 * memcg_tree_lock: a task still in its domain has not exited.) */
	if (unwaited)
		task_set_unwaited(task);
	if (__atomic_exchange_n(&task->killed, true, __ATOMIC_SEQ_CST))
		return;  /* killed already */
	wake_up_task(task);
}

void task_kill(struct task *task)
{
	__task_kill(task, true);
}

void task_kill_user(struct task *task)
{
	__task_kill(task, false);
}

bool task_kill_pending(const struct task *task)
{
	return READ_ONCE(task->killed) || READ_ONCE(task->exiting);
}

bool current_killed(void)
{
	struct task *task = current;

	return task && !(task->flags & TASK_SYSTEM) && READ_ONCE(task->killed);
}

void task_set_comm(struct task *task, const char *name)
{
	strncpy(task->comm, name, sizeof(task->comm) - 1);
	task->comm[sizeof(task->comm) - 1] = '\0';
}

void task_stack_set_magic(struct task *task)
{
	*(uint64_t *)page_address(task->stack) = STACK_END_MAGIC;
}

bool task_stack_intact(const struct task *task)
{
	return *(const uint64_t *)page_address(task->stack) == STACK_END_MAGIC;
}
