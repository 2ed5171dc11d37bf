// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_trace.c - memcg's events: each one's definition (its
 * static key and its entry in the tracer's table), its recorders
 * (__trace_EVENT, called from the sites while the key is on) and how it
 * prints (kernel/trace/trace_event.h; Linux: the TRACE_EVENT definitions
 * of include/trace/events/memcg.h).
 *
 * A recorder runs in the context of the code it watches - interrupts off, in
 * the middle of a page allocation, or under the static-key lock - so it only
 * copies: numbers into arg[], a domain's path into domain[] (the domain may be
 * gone by the time the trace is read). It takes no lock but its CPU's ring's,
 * and allocates nothing.
 *
 * Where each site is, and the Linux tracepoint it stands for, is listed
 * in docs/tracing.md.
 */
#include "mm/memcg/memcg_trace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/x86_64/asm/tracepoint.h"
#include "kernel/task/task.h"
#include "kernel/trace/trace_event.h"
#include "mm/kmem_trace.h"
#include "mm/memcg_hooks.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/res_counter.h"
#include "mm/memcg/stock.h"
#include "mm/page.h"

/* The events, defined at the end of the file, with their print
 * functions. */
TRACE_EVENT_DECLARE(memcg_kmem_domain);
TRACE_EVENT_DECLARE(memcg_stock_consume);
TRACE_EVENT_DECLARE(memcg_stock_refill);
TRACE_EVENT_DECLARE(memcg_stock_drain);
TRACE_EVENT_DECLARE(res_counter_charge);
TRACE_EVENT_DECLARE(memcg_kmem_commit);
TRACE_EVENT_DECLARE(memcg_kmem_uncharge);
TRACE_EVENT_DECLARE(memcg_domain_dying);
TRACE_EVENT_DECLARE(memcg_domain_free);

/* The sites' thunks (arch/x86_64/asm/tracepoint.h). */
TRACE_THUNK(__trace_memcg_kmem_domain);
TRACE_THUNK(__trace_memcg_stock_consume);
TRACE_THUNK(__trace_memcg_stock_refill);
TRACE_THUNK(__trace_memcg_stock_drain_switch);
TRACE_THUNK(__trace_memcg_stock_drain_all);
TRACE_THUNK(__trace_memcg_stock_drain_over);
TRACE_THUNK(__trace_res_counter_charge);
TRACE_THUNK(__trace_memcg_kmem_commit);
TRACE_THUNK(__trace_memcg_domain_dying);
TRACE_THUNK(__trace_memcg_domain_free);
TRACE_THUNK(__trace_mm_page_alloc_unaccounted);
TRACE_THUNK(__trace_mm_page_alloc_charged);
TRACE_THUNK(__trace_memcg_kmem_uncharge);
TRACE_THUNK(__trace_res_counter_charge_two);

/* --- helpers ------------------------------------------------------------- */

void memcg_trace_set_domain(struct trace_entry *e, struct mem_cgroup *memcg)
{
	if (memcg)
		mem_cgroup_path(memcg, e->domain, sizeof(e->domain));
	else
		strcpy(e->domain, "none");
}

/* A counter's usage or limit in bytes; "unlimited" for RES_COUNTER_MAX. */
static const char *bytes_str(uint64_t v, char *buf, size_t size)
{
	if (v == (uint64_t)RES_COUNTER_MAX)
		snprintf(buf, size, "unlimited");
	else
		snprintf(buf, size, "%llu", (unsigned long long)v);
	return buf;
}

#define BEGIN(event)                                                     \
	unsigned long flags;                                             \
	struct trace_entry *e = trace_record_begin(&trace_event_##event,  \
						   &flags);               \
	if (!e)                                                          \
		return

/* --- memcg:memcg_kmem_domain ---------------------------------------------- */

/* Why nobody pays (the reasons of memcg_kmem_payer,
 * mm/memcg_hooks.h, in their order). */
enum { PAYS, NOFAIL, INTERRUPT, NO_TASK, SYSTEM_TASK, ROOT, NOT_ACCOUNTED };
static const char *const why_not[] = {
	[PAYS] = "", [NOFAIL] = "nofail", [INTERRUPT] = "interrupt",
	[NO_TASK] = "early_boot", [SYSTEM_TASK] = "system_task",
	[ROOT] = "root", [NOT_ACCOUNTED] = "not_accounted",
};

void __trace_memcg_kmem_domain(gfp_t gfp, int order, struct mem_cgroup *memcg)
{
	struct task *task = current;
	struct mem_cgroup *in = memcg;
	int why = PAYS;

	/* The hooks pass the domain they will charge if it is accounted
	 * (memcg_kmem_new_page, mm/memcg/kmem_hooks.h), or NULL where
	 * nobody pays before any domain is read (__GFP_NOFAIL, interrupt
	 * context; the root test in alloc_pages). Find which of the
	 * decision's tests says no, from the same facts (the task cannot
	 * have moved meanwhile: we are on its own path, between its test
	 * and its charge). */
	if (!in) {
		if (gfp & __GFP_NOFAIL)
			why = NOFAIL;
		else if (in_interrupt())
			why = INTERRUPT;
		else if (!task)
			why = NO_TASK;
		else if (!READ_ONCE(task->active_memcg) &&
			 (task->flags & TASK_SYSTEM))
			why = SYSTEM_TASK;
		else
			in = memcg_kmem_payer(task, gfp);
	}
	if (why == PAYS && (!in || mem_cgroup_is_root(in)))
		why = ROOT;
	else if (why == PAYS && !memcg_kmem_is_accounted(in))
		why = NOT_ACCOUNTED;

	BEGIN(memcg_kmem_domain);
	e->arg[0] = (uint64_t)order;
	e->arg[1] = gfp;
	e->arg[2] = (uint64_t)why;
	memcg_trace_set_domain(e, in);
	trace_record_end(flags);
}

static void print_memcg_kmem_domain(const struct trace_entry *e, char *buf,
				    size_t size)
{
	unsigned int why = (unsigned int)e->arg[2];

	if (why == PAYS)
		snprintf(buf, size, "order=%llu gfp=0x%llx pays=%s",
			 (unsigned long long)e->arg[0],
			 (unsigned long long)e->arg[1], e->domain);
	else
		snprintf(buf, size, "order=%llu gfp=0x%llx pays=nobody "
			 "reason=%s domain=%s", (unsigned long long)e->arg[0],
			 (unsigned long long)e->arg[1],
			 why < ARRAY_SIZE(why_not) ? why_not[why] : "?",
			 e->domain);
}

/* --- memcg:memcg_stock_consume -------------------------------------------- */

void __trace_memcg_stock_consume(struct mem_cgroup *memcg,
				 unsigned int nr_pages,
				 struct memcg_stock_pcp *stock, bool kmem)
{
	struct mem_cgroup *cached = stock->cached;
	unsigned int stocked = kmem ? stock->nr_kmem : stock->nr_pages;
	/* consume_stock's test, about to be made. */
	bool hit = stock_serves(stock, memcg, nr_pages, kmem);

	BEGIN(memcg_stock_consume);
	e->arg[0] = nr_pages;
	e->arg[1] = (hit ? TRACE_STOCK_HIT : 0) | (kmem ? TRACE_STOCK_KMEM : 0);
	/* What the stock holds after: after a hit, what is left. */
	e->arg[2] = hit ? stocked - nr_pages : stocked;
	e->arg[3] = cached == memcg;  /* stocked for this domain? */
	e->arg[4] = cached != NULL;
	memcg_trace_set_domain(e, memcg);
	trace_record_end(flags);
}

static void print_memcg_stock_consume(const struct trace_entry *e, char *buf,
				      size_t size)
{
	const char *holds = !e->arg[4] ? "nothing" :
			    e->arg[3] ? "this domain" : "another domain";

	snprintf(buf, size, "domain=%s pages=%llu kind=%s %s stock=%llu (%s)",
		 e->domain, (unsigned long long)e->arg[0],
		 e->arg[1] & TRACE_STOCK_KMEM ? "kmem" : "res",
		 e->arg[1] & TRACE_STOCK_HIT ? "hit" : "miss",
		 (unsigned long long)e->arg[2], holds);
}

/* --- memcg:memcg_stock_refill --------------------------------------------- */

void __trace_memcg_stock_refill(struct mem_cgroup *memcg,
				unsigned int nr_pages, unsigned int stocked,
				int how)
{
	BEGIN(memcg_stock_refill);
	e->arg[0] = nr_pages;
	e->arg[1] = stocked;
	e->arg[2] = (uint64_t)how;
	memcg_trace_set_domain(e, memcg);
	trace_record_end(flags);
}

static void print_memcg_stock_refill(const struct trace_entry *e, char *buf,
				     size_t size)
{
	static const char *const from[] = {
		[TRACE_REFILL_RES] = "kind=res from=batch",
		[TRACE_REFILL_KMEM] = "kind=kmem from=batch",
		[TRACE_REFILL_FREED] = "kind=kmem from=freed_page",
	};

	snprintf(buf, size, "domain=%s pages=%llu stock=%llu %s", e->domain,
		 (unsigned long long)e->arg[0], (unsigned long long)e->arg[1],
		 e->arg[2] < ARRAY_SIZE(from) ? from[e->arg[2]] : "?");
}

/* --- memcg:memcg_stock_drain ---------------------------------------------- */

enum { DRAIN_SWITCH, DRAIN_OVER_LIMIT, DRAIN_DYING, DRAIN_STOCK_OFF,
       DRAIN_OVER_THRESHOLD };
static const char *const drain_why[] = {
	[DRAIN_SWITCH] = "another_domain", [DRAIN_OVER_LIMIT] = "over_limit",
	[DRAIN_DYING] = "domain_dying", [DRAIN_STOCK_OFF] = "stock_off",
	[DRAIN_OVER_THRESHOLD] = "over_threshold",
};

static void record_drain(struct mem_cgroup *cached, unsigned int stocked,
			 int why, struct mem_cgroup *top)
{
	BEGIN(memcg_stock_drain);
	e->arg[0] = stocked;
	e->arg[1] = (uint64_t)why;
	memcg_trace_set_domain(e, cached);
	trace_record_end(flags);
}

void __trace_memcg_stock_drain_switch(struct mem_cgroup *cached,
				      unsigned int stocked)
{
	if (cached)  /* an empty stock taking its first domain: no drain */
		record_drain(cached, stocked, DRAIN_SWITCH, NULL);
}

void __trace_memcg_stock_drain_all(struct mem_cgroup *cached,
				   unsigned int stocked,
				   struct mem_cgroup *top)
{
	int why;

	/* drain_local_stock drains only a stock of top's subtree. */
	if (!cached || (top && !res_counter_is_ancestor(&cached->res,
							&top->res)))
		return;
	why = !top ? DRAIN_STOCK_OFF :
	      __atomic_load_n(&top->dying, __ATOMIC_ACQUIRE) ? DRAIN_DYING :
							     DRAIN_OVER_LIMIT;
	record_drain(cached, stocked, why, top);
}

void __trace_memcg_stock_drain_over(struct mem_cgroup *memcg,
				    unsigned int nr_pages,
				    unsigned int stocked)
{
	(void)stocked;  /* at the threshold: stock_kmem_high */
	record_drain(memcg, nr_pages, DRAIN_OVER_THRESHOLD, NULL);
}

static void print_memcg_stock_drain(const struct trace_entry *e, char *buf,
				    size_t size)
{
	unsigned int why = (unsigned int)e->arg[1];

	snprintf(buf, size, "domain=%s pages=%llu reason=%s", e->domain,
		 (unsigned long long)e->arg[0],
		 why < ARRAY_SIZE(drain_why) ? drain_why[why] : "?");
}

/* --- memcg:res_counter_charge --------------------------------------------- */

void __trace_res_counter_charge(struct res_counter *counter, long long val,
				int ret)
{
	BEGIN(res_counter_charge);
	e->arg[0] = (uint64_t)val / PAGE_SIZE;
	e->arg[1] = (uint64_t)READ_ONCE(counter->usage);
	e->arg[2] = (uint64_t)READ_ONCE(counter->limit);
	e->arg[3] = ret == 0 ? 0 : ret == -EAGAIN ? 2 : 1;
	/* The counter names its own domain and kind (res_counter_set_domain):
	 * right for a charge made on another domain's behalf
	 * (set_active_memcg) and for each ancestor up the hierarchy. */
	e->arg[4] = !counter->name ? 2 : !strcmp(counter->name, "kmem");
	if (counter->domain)
		memcg_trace_set_domain(e, counter->domain);
	else
		snprintf(e->domain, sizeof(e->domain), "%p", (void *)counter);
	trace_record_end(flags);
}

static void print_res_counter_charge(const struct trace_entry *e, char *buf,
				     size_t size)
{
	static const char *const name[] = {"res", "kmem", "?"};
	char usage[24], limit[24];

	snprintf(buf, size, "counter=%s domain=%s pages=%llu usage=%s "
		 "limit=%s %s", name[e->arg[4] < 3 ? e->arg[4] : 2], e->domain,
		 (unsigned long long)e->arg[0],
		 bytes_str(e->arg[1], usage, sizeof(usage)),
		 bytes_str(e->arg[2], limit, sizeof(limit)),
		 e->arg[3] == 0 ? "charged" :
		 e->arg[3] == 2 ? "declined (a batch: not in failcnt)" :
				  "REFUSED");
}

/* --- memcg:memcg_kmem_commit, memcg:memcg_kmem_uncharge ------------------- */

static void record_page(const struct trace_event *ev, struct page *page,
			struct mem_cgroup *memcg, int order)
{
	unsigned long flags;
	struct trace_entry *e = trace_record_begin(ev, &flags);

	if (!e)
		return;
	e->arg[0] = trace_page_pfn(page);
	e->arg[1] = (uint64_t)order;
	memcg_trace_set_domain(e, memcg);
	trace_record_end(flags);
}

void __trace_memcg_kmem_commit(struct page *page, struct mem_cgroup *memcg,
			       int order)
{
	record_page(&trace_event_memcg_kmem_commit, page, memcg, order);
}

void __trace_memcg_kmem_uncharge(struct page *page, struct mem_cgroup *memcg,
				 int order)
{
	record_page(&trace_event_memcg_kmem_uncharge, page, memcg, order);
}

/* --- the page allocator's shared sites (mm/kmem_trace.h) ------------------ */


void __trace_mm_page_alloc_unaccounted(struct page *page, unsigned int order,
				       gfp_t gfp)
{
	/* alloc_pages sends the root's accounted allocations here (and
	 * every allocation while the kmem key is off, or without
	 * __GFP_KMEMCG: no one is asked to pay for those). */
	if (trace_event_on(memcg_kmem_domain) && (gfp & __GFP_KMEMCG) &&
	    static_key_count(&memcg_kmem_enabled_key) > 0)
		__trace_memcg_kmem_domain(gfp, (int)order, NULL);
	if (trace_event_on(mm_page_alloc))
		__trace_mm_page_alloc(page, order, gfp);
}

void __trace_mm_page_alloc_charged(struct page *page, struct mem_cgroup *memcg,
				   unsigned int order, gfp_t gfp)
{
	if (memcg && trace_event_on(memcg_kmem_commit))
		__trace_memcg_kmem_commit(page, memcg, (int)order);
	if (trace_event_on(mm_page_alloc))
		__trace_mm_page_alloc(page, order, gfp);
}

void __trace_res_counter_charge_two(struct res_counter *first,
				    struct res_counter *second, long long val)
{
	for (struct res_counter *c = first; c; c = c->parent)
		__trace_res_counter_charge(c, val, 0);
	for (struct res_counter *c = second; c; c = c->parent)
		__trace_res_counter_charge(c, val, 0);
}

static void print_page(const struct trace_entry *e, char *buf, size_t size,
		       bool commit)
{
	char pfn[24];

	if (commit && e->arg[0] == ~0ull)
		snprintf(buf, size, "domain=%s order=%llu pfn=none "
			 "(allocation failed: charge reverted)", e->domain,
			 (unsigned long long)e->arg[1]);
	else
		snprintf(buf, size, "domain=%s order=%llu pfn=%s", e->domain,
			 (unsigned long long)e->arg[1],
			 trace_pfn_str(e->arg[0], pfn, sizeof(pfn)));
}

static void print_memcg_kmem_commit(const struct trace_entry *e, char *buf,
				    size_t size)
{
	print_page(e, buf, size, true);
}

static void print_memcg_kmem_uncharge(const struct trace_entry *e, char *buf,
				      size_t size)
{
	print_page(e, buf, size, false);
}

/* --- memcg:memcg_domain_dying, memcg:memcg_domain_free -------------------- */

static void record_domain(const struct trace_event *ev,
			  struct mem_cgroup *memcg)
{
	unsigned long flags;
	struct trace_entry *e = trace_record_begin(ev, &flags);

	if (!e)
		return;
	e->arg[0] = (uint64_t)READ_ONCE(memcg->kmem.usage);
	e->arg[1] = (uint64_t)READ_ONCE(memcg->res.usage);
	memcg_trace_set_domain(e, memcg);
	trace_record_end(flags);
}

void __trace_memcg_domain_dying(struct mem_cgroup *memcg)
{
	record_domain(&trace_event_memcg_domain_dying, memcg);
}

void __trace_memcg_domain_free(struct mem_cgroup *memcg)
{
	record_domain(&trace_event_memcg_domain_free, memcg);
}

static void print_domain(const struct trace_entry *e, char *buf, size_t size)
{
	snprintf(buf, size, "domain=%s kmem_usage=%llu res_usage=%llu",
		 e->domain, (unsigned long long)e->arg[0],
		 (unsigned long long)e->arg[1]);
}

/* --- the events ----------------------------------------------------------- */

TRACE_EVENT_DEFINE(memcg, memcg_kmem_domain, 01, print_memcg_kmem_domain);
TRACE_EVENT_DEFINE(memcg, memcg_stock_consume, 02,
		   print_memcg_stock_consume);
TRACE_EVENT_DEFINE(memcg, memcg_stock_refill, 03, print_memcg_stock_refill);
TRACE_EVENT_DEFINE(memcg, memcg_stock_drain, 04, print_memcg_stock_drain);
TRACE_EVENT_DEFINE(memcg, res_counter_charge, 05, print_res_counter_charge);
TRACE_EVENT_DEFINE(memcg, memcg_kmem_commit, 06, print_memcg_kmem_commit);
TRACE_EVENT_DEFINE(memcg, memcg_kmem_uncharge, 07,
		   print_memcg_kmem_uncharge);
TRACE_EVENT_DEFINE(memcg, memcg_domain_dying, 09, print_domain);
TRACE_EVENT_DEFINE(memcg, memcg_domain_free, 10, print_domain);
