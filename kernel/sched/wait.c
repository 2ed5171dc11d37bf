// SPDX-License-Identifier: MIT
/*
 * kernel/sched/wait.c - wait queues (see kernel/sched/wait.h), and the OOM wait
 * of kernel/task/task_ops.h built on one.
 */
#include "kernel/sched/wait.h"

#include "kernel/sched/sched.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);

	if (list_empty(&w->node))
		list_add_tail(&w->node, &wq->waiters);
	set_current_state(TASK_SLEEPING);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	unsigned long flags;

	set_current_state(TASK_RUNNING);
	flags = spin_lock_irqsave(&wq->lock);
	if (!list_empty(&w->node))
		list_del_init(&w->node);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void wake_up_all(struct wait_queue_head *wq)
{
	struct wait_queue_entry *w;
	unsigned long flags = spin_lock_irqsave(&wq->lock);

	list_for_each_entry(w, &wq->waiters, node)
		wake_up_task(w->task);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void wake_up(struct wait_queue_head *wq)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);

	if (!list_empty(&wq->waiters)) {
		struct wait_queue_entry *w = list_first_entry(
			&wq->waiters, struct wait_queue_entry, node);
		wake_up_task(w->task);
	}
	spin_unlock_irqrestore(&wq->lock, flags);
}

/* --- the OOM wait (kernel/task/task_ops.h) -------------------------------- */

/* A task waiting for memory in a domain's OOM sleeps at most this long
 * before it looks again. */
#define OOM_WAIT_TICKS 10

static DECLARE_WAIT_QUEUE_HEAD(oom_wq);

void oom_wait(void)
{
	struct wait_queue_entry w = {
		.task = current,
		.node = LIST_HEAD_INIT(w.node),
	};

	if (!current || (current->flags & TASK_IDLE) || !sched_running) {
		__asm__ volatile("sti\n\thlt" ::: "memory");
		return;
	}
	prepare_to_wait(&oom_wq, &w);
	if (!current_killed())
		schedule_timeout(OOM_WAIT_TICKS);
	finish_wait(&oom_wq, &w);
}

void oom_wake_all(void)
{
	wake_up_all(&oom_wq);
}
