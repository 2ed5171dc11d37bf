// SPDX-License-Identifier: MIT
/*
 * kernel/time/timer.c - per-CPU lists of one-shot timers, run by each CPU's
 * tick (see kernel/time/timer.h).
 */
#include "kernel/time/timer.h"

#include "kernel/base/platform.h"
#include "kernel/base/spinlock.h"
#include "kernel/time/time.h"

struct timer_base {
	spinlock_t lock;          /* taken with interrupts off */
	struct list_head timers;  /* pending, soonest first */
} __cacheline_aligned;

static struct timer_base timer_bases[NR_CPUS];

static struct timer_base *this_base(void)
{
	struct timer_base *base = &timer_bases[smp_processor_id()];

	if (!base->timers.next)  /* first use on this CPU */
		INIT_LIST_HEAD(&base->timers);
	return base;
}

void timer_setup(struct timer *timer, void (*fn)(struct timer *), void *data)
{
	INIT_LIST_HEAD(&timer->node);
	timer->expires = 0;
	timer->fn = fn;
	timer->data = data;
	timer->base = NULL;
}

void timer_add(struct timer *timer, uint64_t expires)
{
	unsigned long flags = local_irq_save();
	struct timer_base *base = this_base();
	struct list_head *pos;

	arch_spin_lock_checked(&base->lock);
	timer->expires = expires;
	timer->base = base;
	/* Most timers expire after those already there: search from the end. */
	for (pos = base->timers.prev; pos != &base->timers; pos = pos->prev)
		if (list_entry(pos, struct timer, node)->expires <= expires)
			break;
	__list_add(&timer->node, pos, pos->next);
	arch_spin_unlock_checked(&base->lock);
	local_irq_restore(flags);
}

bool timer_del(struct timer *timer)
{
	struct timer_base *base = timer->base;
	unsigned long flags;
	bool pending;

	if (!base)
		return false;  /* never added */
	flags = local_irq_save();
	arch_spin_lock_checked(&base->lock);
	pending = !list_empty(&timer->node);
	if (pending)
		list_del_init(&timer->node);
	arch_spin_unlock_checked(&base->lock);
	local_irq_restore(flags);
	return pending;
}

void timer_run_expired(void)
{
	struct timer_base *base = this_base();
	uint64_t now = jiffies;
	unsigned long flags;

	if (list_empty(&base->timers) ||
	    list_first_entry(&base->timers, struct timer, node)->expires > now)
		return;  /* the common case, without the lock */
	flags = local_irq_save();
	arch_spin_lock_checked(&base->lock);
	while (!list_empty(&base->timers)) {
		struct timer *timer =
			list_first_entry(&base->timers, struct timer, node);

		if (timer->expires > now)
			break;
		list_del_init(&timer->node);
		timer->fn(timer);
	}
	arch_spin_unlock_checked(&base->lock);
	local_irq_restore(flags);
}
