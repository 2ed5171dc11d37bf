/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/wait.h - wait queues: a task sleeps until a condition holds,
 * and whoever makes it true wakes it (Linux's wait_event / wake_up).
 *
 *   wait_event(&console_wq, console_input_pending());    the sleeper
 *   ... a byte arrives ...; wake_up_all(&console_wq);     the waker
 *
 * No wake-up is lost: the sleeper puts itself on the queue and marks
 * itself TASK_SLEEPING before it tests the condition, so a waker that
 * makes the condition true after the test finds it on the queue and marks
 * it runnable again, and schedule() then does not put it to sleep.
 *
 * Sleeps are killable: a task that is killed (task_kill) is woken, and
 * wait_event_killable() returns false without the condition; wait_event()
 * is for system tasks, which are never killed. Waking is allowed from any
 * context, interrupt handlers included.
 */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include <stdbool.h>

#include "kernel/base/list.h"
#include "kernel/base/spinlock.h"

struct task;

struct wait_queue_head {
	spinlock_t lock;          /* taken with interrupts off */
	struct list_head waiters; /* struct wait_queue_entry, by node */
};

struct wait_queue_entry {
	struct task *task;
	struct list_head node;
};

#define WAIT_QUEUE_HEAD_INIT(name) \
	{SPINLOCK_INIT, LIST_HEAD_INIT((name).waiters)}
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	struct wait_queue_head name = WAIT_QUEUE_HEAD_INIT(name)

/* prepare_to_wait - put the current task on wq (once: w stays on it until
 * finish_wait) and mark it TASK_SLEEPING; then test the condition, and
 * schedule() if it is false. */
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w);

/* finish_wait - the current task is running again: off wq, TASK_RUNNING. */
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w);

/* wake_up_all - wake every task on wq. wake_up - the first one only. */
void wake_up_all(struct wait_queue_head *wq);
void wake_up(struct wait_queue_head *wq);

/* wait_queue_active - is anyone waiting (a hint: no lock)? */
static inline bool wait_queue_active(struct wait_queue_head *wq)
{
	return !list_empty(&wq->waiters);
}

/* current_killed - has the current task been killed
 * (kernel/sched/task_table.c)? */
bool current_killed(void);
void schedule(void);

/*
 * wait_event_killable - sleep until cond is true (returns true) or the
 * task is killed (returns false: the caller gives up and returns, and the
 * task exits). cond is evaluated with the task already marked sleeping:
 * it must not sleep itself.
 */
#define wait_event_killable(wq, cond) \
	({ \
		struct wait_queue_entry __w = { \
			.task = get_current(), \
			.node = LIST_HEAD_INIT(__w.node), \
		}; \
		bool __ok; \
		for (;;) { \
			prepare_to_wait((wq), &__w); \
			if (cond) { \
				__ok = true; \
				break; \
			} \
			if (current_killed()) { \
				__ok = false; \
				break; \
			} \
			schedule(); \
		} \
		finish_wait((wq), &__w); \
		__ok; \
	})

/* wait_event - sleep until cond is true (system tasks: never killed). */
#define wait_event(wq, cond) ((void)wait_event_killable((wq), (cond)))

#endif
