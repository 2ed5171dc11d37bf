// SPDX-License-Identifier: MIT
// labs/res_counter/stubs.c - the starting point of the hierarchical
// counter lab (docs/labs/res_counter.md). `make lab-start LAB=res_counter`
// puts each block below in place of the body of the function named above
// it. These stubs charge every level and never refuse: limits are ignored.

//@ mm/memcg/res_counter.h: __res_counter_charge_one
{
	/* LAB res_counter: add val only if usage stays within the limit,
	 * with a compare-and-swap; keep max_usage. This adds blindly. */
	__atomic_add_fetch(&c->usage, val, __ATOMIC_RELAXED);
	return true;
}

//@ mm/memcg/res_counter.h: __res_counter_charge_chain
{
	/* LAB res_counter: climb from counter to the top and stop at the
	 * first counter that refuses, returning it. This ignores refusals. */
	struct res_counter *c;

	for (c = counter; c; c = c->parent) {
		(void)__res_counter_charge_one(c, val);
		if (trace_each)
			trace_res_counter_charge(c, val, 0);
	}
	return NULL;
}

//@ mm/memcg/res_counter.c: charge_refused
{
	/* LAB res_counter: count the refusal, trace it, and give back what
	 * was charged below the counter that refused. */
	*limit_fail_at = refused;
	return -ENOMEM;
}
