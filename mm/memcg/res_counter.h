/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/res_counter.h - resource counters: how much of something a domain
 * uses, how much it may use, and how often it was refused (Linux 2012:
 * kernel/res_counter.c; since Linux 3.19 the lock-free page_counter).
 *
 * A counter counts bytes. Counters form a tree through their parent
 * pointers: a charge to a counter is a charge to each of its ancestors
 * too, and fails at the first one whose limit it would pass. That counter
 * takes the blame (failcnt + 1, and it is handed back to the caller in
 * *limit_fail_at), and the charges already made below it are undone, so
 * that a failed charge leaves every counter as it was.
 *
 * No counter has a lock. Each level is one atomic compare-and-swap of the
 * usage, made only if the new usage stays within the limit, so the usage
 * never passes the limit, even for an instant; max_usage and failcnt are
 * updated beside it. Two charges may climb the same tree side by side.
 * The price, as with the 2012 locks: a charge that is about to fail and be
 * rolled back may, meanwhile, make another charge fail.
 */
#ifndef MM_RES_COUNTER_H
#define MM_RES_COUNTER_H

#include <errno.h>
#include <stdint.h>

#include <stdbool.h>

#include "kernel/base/platform.h"
#include "mm/memcg/memcg_trace.h"
#include "mm/line_transfer.h"

struct mem_cgroup;

/* The limit of an unlimited counter: reads back as 9223372036854775807. */
#define RES_COUNTER_MAX INT64_MAX

struct res_counter {
	int64_t usage;      /* bytes charged now (atomic) */
	int64_t max_usage;  /* the highest usage since the last reset */
	int64_t limit;      /* usage may not pass it; RES_COUNTER_MAX: none */
	uint64_t failcnt;   /* charges refused because of this limit */
	struct line_writer line;      /* who wrote the fields above last */
	struct res_counter *parent;  /* charged with us; NULL at the top */
	/* Whose counter this is, for the tracepoint res_counter_charge
	 * (kernel/trace/): set by res_counter_set_domain; NULL, and no
	 * name, for a counter of no domain (the host tests'). */
	struct mem_cgroup *domain;
	const char *name;            /* "res" or "kmem" */
};

/* The members res_counter_read_u64() can read (Linux's names). */
enum res_member {
	RES_USAGE,
	RES_MAX_USAGE,
	RES_LIMIT,
	RES_FAILCNT,
};

/*
 * res_counter_init - an empty, unlimited counter.
 * @counter: the counter
 * @parent:  the counter every charge to @counter also goes to, or NULL
 */
void res_counter_init(struct res_counter *counter, struct res_counter *parent);

/* res_counter_set_domain - name the domain a counter belongs to, and which
 * of its counters it is, for the trace (a counter charged for another
 * domain, through set_active_memcg or up the hierarchy, still names its
 * own). */
static inline void res_counter_set_domain(struct res_counter *counter,
					  struct mem_cgroup *domain,
					  const char *name)
{
	counter->domain = domain;
	counter->name = name;
}

/*
 * res_counter_charge - charge val bytes to counter and all its ancestors.
 * @counter:       where the charge starts
 * @val:           bytes, >= 0
 * @limit_fail_at: set to the counter that refused the charge, on failure
 *
 * Walks up from @counter. If some counter's usage + @val would pass its
 * limit, that counter's failcnt is incremented, the charges made so far
 * (to the counters below it) are rolled back, and -ENOMEM is returned.
 * Returns 0 when every counter up to the top took the charge.
 */
int res_counter_charge(struct res_counter *counter, int64_t val,
		       struct res_counter **limit_fail_at);

/*
 * res_counter_charge_quiet - res_counter_charge, except that a refusal is
 * not counted in failcnt.
 *
 * For a charge the caller can do without: the per-CPU stock charges a
 * batch of pages in advance, and when the batch does not fit, the exact
 * charge is made next; only a refusal of that one is a failure the user
 * sees in failcnt. (Not to be confused with mem_cgroup_try_charge, the
 * domain-level charge that drains and reclaims before it gives up.)
 */
int res_counter_charge_quiet(struct res_counter *counter, int64_t val,
			     struct res_counter **limit_fail_at);

/*
 * __res_counter_charge_one - add val to one counter (not its ancestors)
 * if the result stays within its limit. Returns false, and changes
 * nothing, if it would not. Inline, with no call in it, for the callers
 * below: a charge of a page without a stock then runs in its caller's
 * frame, or in none.
 */
static __always_inline bool
__res_counter_charge_one(struct res_counter *c, int64_t val)
{
	int64_t old = __atomic_load_n(&c->usage, __ATOMIC_RELAXED);
	int64_t new;

	do {
		if (old > __atomic_load_n(&c->limit, __ATOMIC_RELAXED) - val)
			return false;  /* usage + val > limit */
		new = old + val;
	} while (!__atomic_compare_exchange_n(&c->usage, &old, new, true,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	line_write(&c->line);
	/* max_usage is a high-water mark: a racing update may lose to a
	 * smaller one for a moment, as Linux's page_counter accepts too. */
	if (new > __atomic_load_n(&c->max_usage, __ATOMIC_RELAXED))
		__atomic_store_n(&c->max_usage, new, __ATOMIC_RELAXED);
	return true;
}

/*
 * __res_counter_charge_chain - charge val to counter and its
 * ancestors, and return NULL; or stop at the first counter that refuses
 * and return it, with the counters below it still charged and nothing
 * counted or traced for the refusal: the caller finishes that (charge_tree
 * counts and traces it; the page path's section makes the charge again
 * the long way). Each level it charges is traced if trace_each
 * (charge_tree's levels). No call in it, so that a caller whose refusal
 * path is a tail call is a leaf.
 */
static __always_inline struct res_counter *
__res_counter_charge_chain(struct res_counter *counter, int64_t val,
			   bool trace_each)
{
	struct res_counter *c;

	for (c = counter; c; c = c->parent) {
		if (unlikely(!__res_counter_charge_one(c, val)))
			return c;
		if (trace_each)
			trace_res_counter_charge(c, val, 0);
	}
	return NULL;
}

/*
 * __res_counter_try_uncharge_chain - give back val to counter and its
 * ancestors below top, and return NULL; a counter left below zero (a
 * bug) stops it there, just after that counter's uncharge, and is
 * returned: the caller finishes out of line (the report, and the rest of
 * the chain). No call in it.
 */
static __always_inline struct res_counter *
__res_counter_try_uncharge_chain(struct res_counter *counter,
				 struct res_counter *top, int64_t val)
{
	struct res_counter *c;

	for (c = counter; c != top; c = c->parent) {
		line_write(&c->line);
		if (unlikely(__atomic_sub_fetch(&c->usage, val,
						__ATOMIC_RELAXED) < 0))
			return c;
	}
	return NULL;
}

/*
 * __res_counter_try_charge_two - charge val to first's chain, then to
 * second's, all or nothing (Linux's page_counter_try_charge does the same
 * for one chain): NULL if every level took it; else the counter that
 * refused, with the levels charged before it given back already. No call
 * in it and no tracepoint, so that a caller's common case can be a leaf:
 * the caller records the levels (trace_res_counter_charge_two); a refusal
 * is recorded when the charge is made again, counted, the long way.
 */
static __always_inline struct res_counter *
__res_counter_try_charge_two(struct res_counter *first,
			     struct res_counter *second, int64_t val)
{
	struct res_counter *refused;

	refused = __res_counter_charge_chain(first, val, false);
	if (unlikely(refused)) {
		__res_counter_try_uncharge_chain(first, refused, val);
		return refused;
	}
	refused = __res_counter_charge_chain(second, val, false);
	if (unlikely(refused)) {
		__res_counter_try_uncharge_chain(second, refused, val);
		__res_counter_try_uncharge_chain(first, NULL, val);
	}
	return refused;
}

/*
 * __res_counter_try_uncharge_two - the uncharge of both chains, for a
 * caller that wants no stack frame: give back val to first's chain, then
 * second's, and return NULL. A counter
 * left below zero (a bug) stops it there, just after that counter's
 * uncharge, and is returned: the caller must then call
 * res_counter_uncharge_two_underflow, which reports it and gives back the
 * rest. No call in it.
 */
static __always_inline struct res_counter *
__res_counter_try_uncharge_two(struct res_counter *first,
			       struct res_counter *second, int64_t val)
{
	struct res_counter *at = __res_counter_try_uncharge_chain(first, NULL,
								  val);

	if (unlikely(at))
		return at;
	return __res_counter_try_uncharge_chain(second, NULL, val);
}

/* res_counter_uncharge_two_underflow - the end of an
 * __res_counter_try_uncharge_two that left counter at below zero: at is
 * reported (with its usage as read now), and the counters after it given
 * back: the rest of its chain, then all of second's if it is on
 * first's. */
void res_counter_uncharge_two_underflow(struct res_counter *first,
					struct res_counter *second,
					struct res_counter *at, int64_t val);

/*
 * res_counter_uncharge - give back val bytes to counter and all its
 * ancestors. Uncharging more than was charged is a bug: it is reported
 * on the console, and the usage goes negative, for `check` to find.
 */
void res_counter_uncharge(struct res_counter *counter, int64_t val);

/*
 * res_counter_uncharge_until - give back val bytes to counter and its
 * ancestors below top (top itself, and what is above it, keep the
 * charge). Moving a charge from a domain to its parent is exactly this,
 * since the parent was charged with the child. top NULL: the whole chain.
 */
void res_counter_uncharge_until(struct res_counter *counter,
				struct res_counter *top, int64_t val);

/*
 * res_counter_set_limit - set counter's limit.
 * @limit: bytes, or RES_COUNTER_MAX for no limit
 *
 * Returns 0, or -EBUSY if the usage is above @limit (the limit is then
 * unchanged). A charge racing with a lowered limit may have been admitted
 * under the old one: the new limit is set first and the usage read after,
 * and if the usage is then above it, the old limit is put back.
 */
int res_counter_set_limit(struct res_counter *counter, int64_t limit);

/* res_counter_reset_max - max_usage becomes the current usage. */
void res_counter_reset_max(struct res_counter *counter);

/* res_counter_reset_failcnt - failcnt becomes 0. */
void res_counter_reset_failcnt(struct res_counter *counter);

/* res_counter_read_u64 - one member of the counter (a snapshot). */
uint64_t res_counter_read_u64(struct res_counter *counter,
			      enum res_member member);

/* res_counter_usage - the usage, signed (negative only after a bug). */
static inline int64_t res_counter_usage(struct res_counter *counter)
{
	return __atomic_load_n(&counter->usage, __ATOMIC_RELAXED);
}

/*
 * res_counter_margin - how many bytes could still be charged to this
 * counter alone (its ancestors may allow less); 0 if it is full.
 */
int64_t res_counter_margin(struct res_counter *counter);

/* res_counter_is_ancestor - is top on the chain from counter up (counter
 * itself included)? */
static inline bool res_counter_is_ancestor(const struct res_counter *counter,
					   const struct res_counter *top)
{
	for (; counter; counter = counter->parent)
		if (counter == top)
			return true;
	return false;
}

#endif
