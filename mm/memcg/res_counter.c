// SPDX-License-Identifier: MIT
/*
 * mm/memcg/res_counter.c - resource counters with limits, charged up a tree,
 * without locks (Linux 2012: kernel/res_counter.c, with a spinlock per
 * counter; Linux 3.19 and later: mm/page_counter.c, lock-free as here).
 *
 * A domain has two: res (user + kernel memory) and kmem (kernel memory
 * only). With use_hierarchy, a domain's counters have its parent's as
 * parents, so that a limit on a domain caps its whole subtree.
 *
 * A charge climbs the tree one counter at a time:
 *
 *   charge(C, val):  C: usage + val <= limit?  yes: usage += val  (CAS)
 *                    B: usage + val <= limit?  yes: usage += val  (CAS)
 *                    A: usage + val <= limit?  no:  A.failcnt++
 *                    undo B, undo C; return -ENOMEM, *limit_fail_at = A
 *
 * Each "usage += val" is a compare-and-swap that succeeds only if no other
 * CPU changed the usage since it was read: then the new usage is known to
 * be within the limit. If another CPU got there first, the step is tried
 * again with the new usage. An uncharge is a plain atomic subtraction.
 *
 * The common case of both (every level charged; no counter left below
 * zero) is inline, in res_counter.h, and calls nothing. What calls - a
 * refusal counted and traced, an underflow reported - is here, out of
 * line.
 */
#include "mm/memcg/res_counter.h"

#include <errno.h>

#include "mm/memcg/memcg_trace.h"

/* Off: shared writes are not counted (mm/line_transfer.h). */
DEFINE_STATIC_KEY_FALSE(line_transfer_key);

void res_counter_init(struct res_counter *counter, struct res_counter *parent)
{
	counter->usage = 0;
	counter->max_usage = 0;
	counter->limit = RES_COUNTER_MAX;
	counter->failcnt = 0;
	counter->line = (struct line_writer){0};
	counter->parent = parent;
	counter->domain = NULL;
	counter->name = NULL;
}

/*
 * uncharge_underflow - the end of an uncharge that left counter at below
 * zero: a bug, reported on the console (with the usage as read now), and
 * the rest of the chain below top given back.
 */
static __noinline __attribute__((cold)) void
uncharge_underflow(struct res_counter *at, struct res_counter *top,
		   int64_t val)
{
	printk("res_counter: uncharge of %lld bytes left counter %p at %lld: "
	       "more was given back than was charged\n", (long long)val,
	       (void *)at, (long long)res_counter_usage(at));
	res_counter_uncharge_until(at->parent, top, val);
}

/*
 * charge_refused - the end of a refused charge_tree: the refusal counted
 * (if count_fail) and traced, and the counters below the one that
 * refused given back. Out of line: res_counter_charge's common case is
 * then a leaf.
 */
static __noinline int
charge_refused(struct res_counter *counter, struct res_counter *refused,
	       int64_t val, struct res_counter **limit_fail_at,
	       bool count_fail)
{
	if (count_fail)
		__atomic_add_fetch(&refused->failcnt, 1, __ATOMIC_RELAXED);
	/* -ENOMEM: refused, counted; -EAGAIN: a batch declined quietly
	 * (the caller tries the exact charge next). */
	trace_res_counter_charge(refused, val, count_fail ? -ENOMEM : -EAGAIN);
	*limit_fail_at = refused;
	res_counter_uncharge_until(counter, refused, val);
	return -ENOMEM;
}

static __always_inline int
charge_tree(struct res_counter *counter, int64_t val,
	    struct res_counter **limit_fail_at, bool count_fail)
{
	struct res_counter *refused;

	*limit_fail_at = NULL;
	refused = __res_counter_charge_chain(counter, val, true);
	if (likely(!refused))
		return 0;
	return charge_refused(counter, refused, val, limit_fail_at,
			      count_fail);
}

int res_counter_charge(struct res_counter *counter, int64_t val,
		       struct res_counter **limit_fail_at)
{
	return charge_tree(counter, val, limit_fail_at, true);
}

int res_counter_charge_quiet(struct res_counter *counter, int64_t val,
			     struct res_counter **limit_fail_at)
{
	return charge_tree(counter, val, limit_fail_at, false);
}

void res_counter_uncharge_two_underflow(struct res_counter *first,
					struct res_counter *second,
					struct res_counter *at, int64_t val)
{
	uncharge_underflow(at, NULL, val);
	if (res_counter_is_ancestor(first, at))
		res_counter_uncharge(second, val);
}

void res_counter_uncharge_until(struct res_counter *counter,
				struct res_counter *top, int64_t val)
{
	struct res_counter *at;

	at = __res_counter_try_uncharge_chain(counter, top, val);
	if (unlikely(at))
		uncharge_underflow(at, top, val);
}

void res_counter_uncharge(struct res_counter *counter, int64_t val)
{
	res_counter_uncharge_until(counter, NULL, val);
}

int res_counter_set_limit(struct res_counter *counter, int64_t limit)
{
	int64_t old;

	if (res_counter_usage(counter) > limit)
		return -EBUSY;
	/* Set first, read the usage after: a charge admitted under the old
	 * limit meanwhile is then seen, and the old limit put back. */
	old = __atomic_exchange_n(&counter->limit, limit, __ATOMIC_SEQ_CST);
	if (limit >= old || res_counter_usage(counter) <= limit)
		return 0;
	__atomic_store_n(&counter->limit, old, __ATOMIC_SEQ_CST);
	return -EBUSY;
}

void res_counter_reset_max(struct res_counter *counter)
{
	__atomic_store_n(&counter->max_usage, res_counter_usage(counter),
			 __ATOMIC_RELAXED);
}

void res_counter_reset_failcnt(struct res_counter *counter)
{
	__atomic_store_n(&counter->failcnt, 0, __ATOMIC_RELAXED);
}

uint64_t res_counter_read_u64(struct res_counter *counter,
			      enum res_member member)
{
	switch (member) {
	case RES_USAGE:
		return (uint64_t)res_counter_usage(counter);
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
	int64_t margin = READ_ONCE(counter->limit) - res_counter_usage(counter);

	return margin > 0 ? margin : 0;
}
