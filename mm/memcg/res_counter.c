// SPDX-License-Identifier: MIT
/*
 * mm/memcg/res_counter.c - resource counters with limits, charged up a tree
 * (Linux 2012: kernel/res_counter.c).
 *
 * A domain has two: res (user + kernel memory) and kmem (kernel memory
 * only). With use_hierarchy, a domain's counters have its parent's as
 * parents, so that a limit on a domain caps its whole subtree.
 *
 * The charge walks up the tree taking one lock at a time:
 *
 *   charge(C, val):  C: usage + val <= limit?  yes: usage += val
 *                    B: usage + val <= limit?  yes: usage += val
 *                    A: usage + val <= limit?  no:  A.failcnt++
 *                    undo B, undo C; return -ENOMEM, fail_at = A
 *
 * Between the charge of C and the undo, another charge may see C's usage
 * too high and fail: a failure can be caused by a charge that itself
 * fails. That is the price of not locking the tree, and it is Linux's.
 */
#include "mm/memcg/res_counter.h"

#include <errno.h>

#include "kernel/trace/trace_events.h"

void res_counter_init(struct res_counter *counter, struct res_counter *parent)
{
	spin_lock_init(&counter->lock);
	counter->usage = 0;
	counter->max_usage = 0;
	counter->limit = RES_COUNTER_MAX;
	counter->failcnt = 0;
	counter->parent = parent;
}

/*
 * res_counter_charge_locked - charge one counter, its lock held. Returns
 * -ENOMEM if the limit would be passed: then, unless force, nothing is
 * charged. A refusal counts in failcnt if count_fail.
 */
static int res_counter_charge_locked(struct res_counter *counter, int64_t val,
				     bool force, bool count_fail)
{
	int ret = 0;

	if (counter->usage > counter->limit - val) {  /* usage + val > limit */
		if (count_fail)
			counter->failcnt++;
		ret = -ENOMEM;
		if (!force)
			return ret;
	}
	counter->usage += val;
	if (counter->usage > counter->max_usage)
		counter->max_usage = counter->usage;
	return ret;
}

/* res_counter_uncharge_locked - uncharge one counter, its lock held. */
static void res_counter_uncharge_locked(struct res_counter *counter,
					int64_t val)
{
	if (unlikely(counter->usage < val))
		printk("res_counter: uncharge of %lld bytes from a counter "
		       "with usage %lld (counter %p): more was given back than "
		       "was charged\n", (long long)val,
		       (long long)counter->usage, (void *)counter);
	counter->usage -= val;
}

static int __res_counter_charge(struct res_counter *counter, int64_t val,
				struct res_counter **limit_fail_at,
				bool force, bool count_fail)
{
	struct res_counter *c, *u;
	unsigned long flags;
	int ret = 0;

	*limit_fail_at = NULL;
	flags = local_irq_save();
	for (c = counter; c; c = c->parent) {
		int r;

		spin_lock(&c->lock);
		r = res_counter_charge_locked(c, val, force, count_fail);
		trace_res_counter_charge(c, val, r);
		spin_unlock(&c->lock);
		if (r < 0 && !ret) {
			ret = r;
			*limit_fail_at = c;
			if (!force)
				break;
		}
	}
	if (ret < 0 && !force) {
		/* Roll back the counters below the one that refused. */
		for (u = counter; u != c; u = u->parent) {
			spin_lock(&u->lock);
			res_counter_uncharge_locked(u, val);
			spin_unlock(&u->lock);
		}
	}
	local_irq_restore(flags);
	return ret;
}

int res_counter_charge(struct res_counter *counter, int64_t val,
		       struct res_counter **limit_fail_at)
{
	return __res_counter_charge(counter, val, limit_fail_at, false, true);
}

int res_counter_try_charge(struct res_counter *counter, int64_t val,
			   struct res_counter **limit_fail_at)
{
	return __res_counter_charge(counter, val, limit_fail_at, false, false);
}

int res_counter_charge_nofail(struct res_counter *counter, int64_t val,
			      struct res_counter **limit_fail_at)
{
	return __res_counter_charge(counter, val, limit_fail_at, true, true);
}

void res_counter_uncharge_until(struct res_counter *counter,
				struct res_counter *top, int64_t val)
{
	unsigned long flags = local_irq_save();

	for (struct res_counter *c = counter; c != top; c = c->parent) {
		spin_lock(&c->lock);
		res_counter_uncharge_locked(c, val);
		spin_unlock(&c->lock);
	}
	local_irq_restore(flags);
}

void res_counter_uncharge(struct res_counter *counter, int64_t val)
{
	res_counter_uncharge_until(counter, NULL, val);
}

int res_counter_set_limit(struct res_counter *counter, int64_t limit)
{
	unsigned long flags = spin_lock_irqsave(&counter->lock);
	int ret = -EBUSY;

	if (counter->usage <= limit) {
		counter->limit = limit;
		ret = 0;
	}
	spin_unlock_irqrestore(&counter->lock, flags);
	return ret;
}

void res_counter_reset_max(struct res_counter *counter)
{
	unsigned long flags = spin_lock_irqsave(&counter->lock);

	counter->max_usage = counter->usage;
	spin_unlock_irqrestore(&counter->lock, flags);
}

void res_counter_reset_failcnt(struct res_counter *counter)
{
	unsigned long flags = spin_lock_irqsave(&counter->lock);

	counter->failcnt = 0;
	spin_unlock_irqrestore(&counter->lock, flags);
}

uint64_t res_counter_read_u64(struct res_counter *counter,
			      enum res_member member)
{
	switch (member) {
	case RES_USAGE:
		return (uint64_t)READ_ONCE(counter->usage);
	case RES_MAX_USAGE:
		return (uint64_t)READ_ONCE(counter->max_usage);
	case RES_LIMIT:
		return (uint64_t)READ_ONCE(counter->limit);
	case RES_FAILCNT:
		return READ_ONCE(counter->failcnt);
	}
	return 0;
}

int64_t res_counter_margin(struct res_counter *counter)
{
	unsigned long flags = spin_lock_irqsave(&counter->lock);
	int64_t margin = counter->limit - counter->usage;

	spin_unlock_irqrestore(&counter->lock, flags);
	return margin > 0 ? margin : 0;
}
