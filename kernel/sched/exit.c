// SPDX-License-Identifier: MIT
/*
 * kernel/sched/exit.c - how tasks end: task_exit, the reaper, wait (see
 * kernel/sched/exit.h).
 *
 *   task_exit()          the task frees its program's allocations and its
 *                        user memory, leaves its domain, becomes a zombie
 *   schedule_dead()      its last switch
 *   reaper_take()        the next task on that CPU hands it to the reaper
 *   reaper_main()        frees its kernel stack (uncharging the domain),
 *                        wakes `wait`ers; reaps it if nobody will wait,
 *                        and tells its starter (task->on_reap) if asked
 *   task_wait()          `wait PID`: waits for all that, then reaps
 *   task_set_unwaited()  nobody will wait for it (any time, even after
 *                        the reaper has passed it: then it reaps it)
 *   reaper_check()       `check`: no dead task is lost on the way
 */
#include "kernel/sched/exit.h"

#include <errno.h>
#include <stdio.h>

#include "kernel/sched/fork.h"
#include "kernel/base/platform.h"
#include "kernel/sched/program.h"
#include "kernel/sched/sched.h"
#include "kernel/base/spinlock.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "kernel/sched/task_table.h"
#include "kernel/sched/wait.h"
#include "kernel/time/time.h"
#include "mm/buddy.h"
#include "mm/memcg/memcontrol.h"

/* Dead tasks whose stacks the reaper has yet to free. */
static LIST_HEAD(dead_list);
static spinlock_t dead_lock = SPINLOCK_INIT;  /* interrupts off */
static DECLARE_WAIT_QUEUE_HEAD(reaper_wq);
/* Woken when a dead task's stack has been freed: `wait`ers. */
static DECLARE_WAIT_QUEUE_HEAD(task_exit_wq);
/* Tasks that have begun to exit and whose stacks are not freed yet. */
static unsigned int nr_stacks_unfreed;

_Noreturn void task_exit(void)
{
	struct task *self = current;

	self->in_kernel++;
	WRITE_ONCE(self->exiting, true);
	__atomic_add_fetch(&nr_stacks_unfreed, 1, __ATOMIC_RELAXED);
	if (self->prog_exit)
		self->prog_exit(self);
	mem_cgroup_exit_task(self);
	schedule_dead();
}

void reaper_take(struct task *task)
{
	unsigned long flags = spin_lock_irqsave(&dead_lock);

	/* Linked a second time, the list would drop every task queued after
	 * this one's first place: their stacks would never be freed. */
	if (!list_empty(&task->dead_node))
		panic("reaper: task %d (%s) handed to the reaper twice",
		      task->pid, task->comm);
	list_add_tail(&task->dead_node, &dead_list);
	spin_unlock_irqrestore(&dead_lock, flags);
	wake_up(&reaper_wq);
}

/* free_stack - the dead task's kernel stack goes back (and its domain is
 * uncharged: free_accounted_pages). */
static void free_stack(struct task *task)
{
	struct page *stack = task->stack;

	memcg_account_kernel_stack(stack, -1);
	free_accounted_pages(stack, THREAD_ORDER);
	WRITE_ONCE(task->stack, NULL);
}

static void reaper_main(struct task *self, const char *arg)
{
	for (;;) {
		LIST_HEAD(dead);
		struct task *task, *next;
		unsigned long flags;

		wait_event(&reaper_wq, !list_empty(&dead_list));
		flags = spin_lock_irqsave(&dead_lock);
		/* Take the whole list at once. */
		dead.next = dead_list.next;
		dead.prev = dead_list.prev;
		dead.next->prev = &dead;
		dead.prev->next = &dead;
		INIT_LIST_HEAD(&dead_list);
		spin_unlock_irqrestore(&dead_lock, flags);

		list_for_each_entry_safe(task, next, &dead, dead_node) {
			unsigned int before;

			if (READ_ONCE(task->state) != TASK_ZOMBIE ||
			    !task->stack)
				panic("reaper: task %d (%s) came to the "
				      "reaper %s", task->pid, task->comm,
				      task->stack ? "alive" : "with no stack");
			free_stack(task);
			/* Off the list only now: until its stack is freed, a
			 * dead task is on a list of the reaper's
			 * (reaper_check). */
			list_del_init(&task->dead_node);
			__atomic_sub_fetch(&nr_stacks_unfreed, 1,
					   __ATOMIC_RELEASE);
			self->work++;
			/* After free_stack: whoever reaps it, seeing this
			 * bit, must find the stack gone (task_put checks). */
			before = __atomic_fetch_or(&task->reap_state,
						   REAP_STACK_FREED,
						   __ATOMIC_ACQ_REL);
			if (before & REAP_UNWAITED) {
				task_release(task);
				/* Tell whoever started it (the shell's job
				 * table): it is gone, and how it ended. */
				if (task->on_reap)
					task->on_reap(task->on_reap_data,
						      task->pid,
						      READ_ONCE(task->killed));
			}
			task_put(task);  /* the task's own reference */
		}
		wake_up_all(&task_exit_wq);
	}
}

static const struct program reaper_program = {
	.name = "reaper",
	.main = reaper_main,
};

unsigned int exited_stacks_unfreed(void)
{
	return __atomic_load_n(&nr_stacks_unfreed, __ATOMIC_ACQUIRE);
}

void reaper_start(void)
{
	if (task_spawn_system(&reaper_program, "") < 0)
		panic("reaper: cannot create the reaper task");
}

int task_wait(int pid)
{
	struct task *task = task_get(pid);

	if (!task)
		return -ESRCH;
	if (task->flags & TASK_SYSTEM) {
		task_put(task);
		return -EPERM;
	}
	/* A task that waits, and is killed meanwhile, gives up - and will
	 * never come back for this one: the reaper reaps it instead (as
	 * Linux's init reaps the children of a parent that has died). */
	if (!wait_event_killable(&task_exit_wq,
				 READ_ONCE(task->state) == TASK_ZOMBIE &&
					 !READ_ONCE(task->stack))) {
		task_set_unwaited(task);
		task_put(task);
		return -EINTR;
	}
	task_release(task);
	task_put(task);
	return 0;
}

void task_set_unwaited(struct task *task)
{
	unsigned int before = __atomic_fetch_or(&task->reap_state,
						REAP_UNWAITED,
						__ATOMIC_ACQ_REL);

	/* The reaper has already freed its stack and left it, a zombie, for
	 * a `wait` that will not come now: reap it here. (Not a job: a job
	 * is unwaited from its start, so it has no on_reap to call.) */
	if (before == REAP_STACK_FREED)
		task_release(task);
}

/* A dead task is on its way to the reaper for the few microseconds of its
 * last switch: what looks lost is looked at again this much later. */
#define REAPER_CHECK_GRACE_MS 1000

/* stack_lost - is task a zombie whose stack is not freed and that is not
 * on a list of the reaper's? Asked under dead_lock, which the reaper
 * holds while it links and unlinks. */
static bool stack_lost(struct task *task)
{
	unsigned long flags = spin_lock_irqsave(&dead_lock);
	bool lost = READ_ONCE(task->state) == TASK_ZOMBIE &&
		    READ_ONCE(task->stack) && list_empty(&task->dead_node);

	spin_unlock_irqrestore(&dead_lock, flags);
	return lost;
}

int reaper_check(char *buf, size_t size)
{
	struct task **tasks;
	size_t nr, suspects = 0, len = 0;
	int lost = 0;

	if (size)
		buf[0] = '\0';
	tasks = task_snapshot(&nr);
	if (!tasks)
		return 0;  /* no memory to look: nothing seen broken */
	/* Keep only what looks lost, then look at it again. */
	for (size_t i = 0; i < nr; i++) {
		if (stack_lost(tasks[i]))
			tasks[suspects++] = tasks[i];
		else
			task_put(tasks[i]);
	}
	if (suspects)
		msleep(REAPER_CHECK_GRACE_MS);
	for (size_t i = 0; i < suspects; i++) {
		struct task *task = tasks[i];

		if (stack_lost(task)) {
			lost++;
			if (len < size)
				len += (size_t)snprintf(
					buf + len, size - len,
					"task %d (%s): exited, its stack not "
					"freed and not with the reaper\n",
					task->pid, task->comm);
		}
	}
	task_snapshot_put(tasks, suspects);
	return lost;
}
