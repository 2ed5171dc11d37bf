/* SPDX-License-Identifier: MIT */
/*
 * kernel/time/timer.h - one-shot timers at tick resolution: call fn(timer) from
 * the timer interrupt once jiffies reaches expires. msleep and timed
 * waits are built on them (kernel/sched/sched.c, kernel/sched/wait.c).
 *
 * Each CPU keeps its own list, sorted by expiry; a timer goes on the list
 * of the CPU that adds it and is run by that CPU's tick. fn runs in
 * interrupt context with that list's lock held, so that timer_del() can
 * wait for a running fn: after timer_del() returns, fn is not running and
 * will not run (the timer may be on the stack of the task that deletes
 * it). fn may wake tasks; it must not add or delete timers.
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/base/list.h"

struct timer_base;

struct timer {
	struct list_head node;     /* on its base's list while pending */
	uint64_t expires;          /* in jiffies */
	void (*fn)(struct timer *timer);
	void *data;                /* for fn */
	struct timer_base *base;   /* the list it is on, or was last on */
};

/* timer_setup - a timer that calls fn(timer) with timer->data = data. */
void timer_setup(struct timer *timer, void (*fn)(struct timer *), void *data);

/* timer_add - run timer->fn once jiffies >= expires (this CPU's list). The
 * timer must not be pending. */
void timer_add(struct timer *timer, uint64_t expires);

/* timer_del - cancel timer if pending; wait if its fn is running. Returns
 * true if it was pending. */
bool timer_del(struct timer *timer);

/* timer_run_expired - this CPU's tick: run its timers that are due. */
void timer_run_expired(void);

#endif
