/* SPDX-License-Identifier: MIT */
/*
 * kernel/trace/trace_events.h - the tracepoints of the accounting path
 * (Linux: include/trace/events/kmem.h, include/linux/tracepoint.h).
 *
 * A tracepoint is one line in the code it watches:
 *
 *   trace_memcg_kmem_commit(page, handle, order);
 *
 * and costs, while its event is off, one 5-byte NOP: each wrapper below is
 * an inline test of the event's own static key (kernel/base/static_key.h),
 * named trace_EVENT_key and listed in /proc/static_keys with its sites.
 * Turning the event on (echo EVENT > /sys/kernel/tracing/set_event) takes
 * a reference on the key, which patches every site to a jump to the call
 * of the out-of-line recorder __trace_EVENT (kernel/trace/trace_events.c;
 * an event with several kinds of site, memcg_stock_drain, has one each). The
 * recorder copies what it needs - numbers, a domain's path, never a
 * pointer to something that may be freed - into this CPU's ring buffer
 * (kernel/trace/trace_ring.h) and returns. It never allocates.
 *
 * The arguments at each site are simple expressions (a variable, a
 * field), which the compiler computes in the unlikely branch only.
 *
 * Compiled out (make TRACE=0, or a host build of mm/): every wrapper is
 * empty, and no site is left in the code at all.
 */
#ifndef KERNEL_TRACE_TRACE_EVENTS_H
#define KERNEL_TRACE_TRACE_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/base/static_key.h"
#include "mm/gfp.h"

struct mem_cgroup;
struct memcg_stock_pcp;
struct page;
struct res_counter;

/*
 * The events: TRACE_EVENT_LIST(E) calls E(system, name) for each, in the
 * order available_events lists them. The system is the part before the
 * colon in set_event ("kmem:mm_page_alloc"), as in ftrace.
 */
#define TRACE_EVENT_LIST(E)                     \
	E(kmem, mm_page_alloc)                  \
	E(memcg, memcg_kmem_domain)             \
	E(memcg, memcg_stock_consume)           \
	E(memcg, memcg_stock_refill)            \
	E(memcg, memcg_stock_drain)             \
	E(memcg, res_counter_charge)            \
	E(memcg, memcg_kmem_commit)             \
	E(memcg, memcg_kmem_uncharge)           \
	E(task, task_fork_refused)              \
	E(memcg, memcg_domain_dying)            \
	E(memcg, memcg_domain_free)             \
	E(static_key, static_key_patch)

#define TRACE_EVENT_ID(system, name) TRACE_##name,
enum trace_event_id { TRACE_EVENT_LIST(TRACE_EVENT_ID) NR_TRACE_EVENTS };
#undef TRACE_EVENT_ID

#if defined(CONFIG_TRACEPOINTS) && defined(TALLY_KERNEL)

#define TRACE_EVENT_KEY(system, name) \
	extern struct static_key trace_##name##_key;
TRACE_EVENT_LIST(TRACE_EVENT_KEY)
#undef TRACE_EVENT_KEY

/*
 * The call, when the event is on: not a C call but `call __fn_thunk` from
 * inline assembly, with the arguments in the registers of the C calling
 * convention (rdi, rsi, rdx, rcx, r8). The thunk (TRACE_THUNK in
 * kernel/trace/trace_events.c) saves every register a C function may
 * change, aligns the stack, calls __fn and restores them. So, for the
 * compiler, the site changes no register: a function with a tracepoint
 * needs no stack frame and no saved register it did not need before, and
 * the site costs what it should while the event is off - the 5-byte NOP
 * and nothing else (docs/performance-notes.md). Linux reaches the same
 * end with its static calls and register-saving thunks.
 */
#define __TR_REG(reg, v) \
	register uintptr_t __tr_##reg __asm__(#reg) = (uintptr_t)(v)
#define __TR_CALL(thunk, ...) \
	__asm__ volatile("call " thunk : : __VA_ARGS__ : "memory", "cc")
#define __TR_CALL1(t, a) \
	__TR_REG(rdi, a); __TR_CALL(t, "r"(__tr_rdi))
#define __TR_CALL2(t, a, b) \
	__TR_REG(rdi, a); __TR_REG(rsi, b); \
	__TR_CALL(t, "r"(__tr_rdi), "r"(__tr_rsi))
#define __TR_CALL3(t, a, b, c) \
	__TR_REG(rdi, a); __TR_REG(rsi, b); __TR_REG(rdx, c); \
	__TR_CALL(t, "r"(__tr_rdi), "r"(__tr_rsi), "r"(__tr_rdx))
#define __TR_CALL4(t, a, b, c, d) \
	__TR_REG(rdi, a); __TR_REG(rsi, b); __TR_REG(rdx, c); \
	__TR_REG(rcx, d); \
	__TR_CALL(t, "r"(__tr_rdi), "r"(__tr_rsi), "r"(__tr_rdx), \
		  "r"(__tr_rcx))
#define __TR_CALL5(t, a, b, c, d, e) \
	__TR_REG(rdi, a); __TR_REG(rsi, b); __TR_REG(rdx, c); \
	__TR_REG(rcx, d); __TR_REG(r8, e); \
	__TR_CALL(t, "r"(__tr_rdi), "r"(__tr_rsi), "r"(__tr_rdx), \
		  "r"(__tr_rcx), "r"(__tr_r8))
#define __TR_NARGS(...) __TR_NARGS_(__VA_ARGS__, 5, 4, 3, 2, 1, 0)
#define __TR_NARGS_(a, b, c, d, e, n, ...) n
#define __TR_CAT(a, b) a##b
#define __TR_CALLN(n) __TR_CAT(__TR_CALL, n)
#define __TR_UNPAREN(...) __VA_ARGS__
#define __TR_CALL_ARGS(thunk, ...) \
	__TR_CALLN(__TR_NARGS(__VA_ARGS__))(thunk, __VA_ARGS__)

/* TRACEPOINT(event, wrapper, (params), (args)) - the inline wrapper: a
 * NOP while the event's key is off, else the call of __wrapper through
 * its thunk. */
#define TRACEPOINT(event, fn, params, args)                               \
	void __##fn params;                                               \
	static __attribute__((always_inline)) inline void fn params       \
	{                                                                 \
		if (static_branch_unlikely(&trace_##event##_key)) {       \
			__TR_CALL_ARGS("__" #fn "_thunk", __TR_UNPAREN args); \
		}                                                         \
	}

/* TRACEPOINT_SHARED(fn, (keys), (params), (args)) - one site for the
 * events whose keys are listed (static_branch_unlikely_any): a NOP while
 * all of them are off; else __fn is called, and records those of the
 * events that are on. */
#define TRACEPOINT_SHARED(fn, keys, params, args)                         \
	void __##fn params;                                               \
	static __attribute__((always_inline)) inline void fn params       \
	{                                                                 \
		if (static_branch_unlikely_any(__TR_UNPAREN keys)) {      \
			__TR_CALL_ARGS("__" #fn "_thunk", __TR_UNPAREN args); \
		}                                                         \
	}

#else

#define TRACEPOINT(event, fn, params, args) \
	static inline void fn params {}
#define TRACEPOINT_SHARED(fn, keys, params, args) \
	static inline void fn params {}

#endif

/* kmem:mm_page_alloc - alloc_pages() returns: order, gfp, pfn (none if it
 * failed). */
TRACEPOINT(mm_page_alloc, trace_mm_page_alloc,
	   (struct page *page, unsigned int order, gfp_t gfp),
	   (page, order, gfp))


/* memcg:memcg_kmem_domain - who pays for an accounted allocation: the
 * domain, or nobody and why (memcg NULL: the recorder finds the reason). */
TRACEPOINT(memcg_kmem_domain, trace_memcg_kmem_domain,
	   (gfp_t gfp, int order, struct mem_cgroup *memcg),
	   (gfp, order, memcg))

/* memcg:memcg_stock_consume - was a charge of nr_pages served by this
 * CPU's stock (hit) or not (miss: the counters are charged next)? how:
 * TRACE_STOCK_HIT, and TRACE_STOCK_KMEM for a kernel charge (res and
 * kmem) rather than a user one (res). The recorder reads the stock
 * (this CPU's, interrupts still off) for what it holds: the site passes
 * the pointer it already has, and loads nothing on the way past. */
#define TRACE_STOCK_HIT 1u
#define TRACE_STOCK_KMEM 2u
TRACEPOINT(memcg_stock_consume, trace_memcg_stock_consume,
	   (struct mem_cgroup *memcg, unsigned int nr_pages,
	    struct memcg_stock_pcp *stock, unsigned int how),
	   (memcg, nr_pages, stock, how))

/* memcg:memcg_stock_refill - charge goes into the stock: the surplus of a
 * batch charged to res only (TRACE_REFILL_RES) or to res and kmem
 * (TRACE_REFILL_KMEM), or a freed kernel page's charge coming back
 * (TRACE_REFILL_FREED). stocked: the stock's pages of that kind after. */
enum { TRACE_REFILL_RES, TRACE_REFILL_KMEM, TRACE_REFILL_FREED };
TRACEPOINT(memcg_stock_refill, trace_memcg_stock_refill,
	   (struct mem_cgroup *memcg, unsigned int nr_pages,
	    unsigned int stocked, int how),
	   (memcg, nr_pages, stocked, how))

/* memcg:memcg_stock_drain - a stock gives its pages back, because another
 * domain is stocked on this CPU (switch)... */
TRACEPOINT(memcg_stock_drain, trace_memcg_stock_drain_switch,
	   (struct mem_cgroup *cached, unsigned int stocked),
	   (cached, stocked))
/* ... or because drain_all_stock(top) asked every CPU: a charge over
 * top's limit, top dying, or stocks turned off (top NULL). Recorded only
 * if this CPU's stock is one that drain_local_stock drains. */
TRACEPOINT(memcg_stock_drain, trace_memcg_stock_drain_all,
	   (struct mem_cgroup *cached, unsigned int stocked,
	    struct mem_cgroup *top),
	   (cached, stocked, top))
/* ... or, for a freed kernel page, because the stock already holds its
 * most kernel pages (stock_kmem_high): the page's own charge goes to the
 * counters instead of the stock (reason over_threshold). */
TRACEPOINT(memcg_stock_drain, trace_memcg_stock_drain_over,
	   (struct mem_cgroup *memcg, unsigned int nr_pages,
	    unsigned int stocked),
	   (memcg, nr_pages, stocked))

/* memcg:res_counter_charge - one counter of one domain charged (ret 0)
 * or refusing (over its limit: -ENOMEM, counted in failcnt; -EAGAIN, a
 * batch declined quietly). The counter names its domain and kind
 * (res_counter_set_owner). */
TRACEPOINT(res_counter_charge, trace_res_counter_charge,
	   (struct res_counter *counter, long long val, int ret),
	   (counter, val, ret))

/* ... and the same for every level of two chains, charged (ret 0): the
 * res and kmem counters of a kernel charge, after both took it
 * (__res_counter_try_charge_two). */
TRACEPOINT(res_counter_charge, trace_res_counter_charge_two,
	   (struct res_counter *first, struct res_counter *second,
	    long long val),
	   (first, second, val))

/* memcg:memcg_kmem_commit - the page now belongs to the charged domain
 * (or, page NULL, the allocation failed and the charge is reverted). */
TRACEPOINT(memcg_kmem_commit, trace_memcg_kmem_commit,
	   (struct page *page, struct mem_cgroup *memcg, int order),
	   (page, memcg, order))

/* memcg:memcg_kmem_uncharge - an accounted page is freed. No site of its
 * own: the free path's two shared sites record it
 * (trace_memcg_kmem_stock_free, trace_memcg_kmem_uncharge_slow below). */

/*
 * The sites that several events share: on the paths that every charged
 * page takes, one NOP each rather than one per event. The recorder
 * records each event of the site that is on, in the order the path
 * meets them.
 *
 * trace_mm_page_alloc_unaccounted - alloc_pages_uncharged returns: nobody pays
 * for the page. mm_page_alloc; and memcg_kmem_domain (pays=nobody, and why) if
 * the allocation asked to be accounted while the kmem key is on - the root's
 * allocations, which alloc_pages sends here.
 */
TRACEPOINT_SHARED(trace_mm_page_alloc_unaccounted,
		  (&trace_mm_page_alloc_key, &trace_memcg_kmem_domain_key),
		  (struct page *page, unsigned int order, gfp_t gfp),
		  (page, order, gfp))

/* trace_memcg_kmem_stock_alloc - a charged allocation returns a page
 * whose charge this CPU's stock served: memcg_kmem_domain,
 * memcg_stock_consume (hit), memcg_kmem_commit, mm_page_alloc. */
TRACEPOINT_SHARED(trace_memcg_kmem_stock_alloc,
		  (&trace_memcg_kmem_domain_key, &trace_memcg_stock_consume_key,
		   &trace_memcg_kmem_commit_key, &trace_mm_page_alloc_key),
		  (struct page *page, struct mem_cgroup *memcg, int order,
		   gfp_t gfp),
		  (page, memcg, order, gfp))

/* trace_memcg_kmem_stock_free - a freed page's charge went back to this
 * CPU's stock: memcg_kmem_uncharge, memcg_stock_refill (from=freed_page). */
TRACEPOINT_SHARED(trace_memcg_kmem_stock_free,
		  (&trace_memcg_kmem_uncharge_key,
		   &trace_memcg_stock_refill_key),
		  (struct page *page, struct mem_cgroup *memcg, int order),
		  (page, memcg, order))

/* trace_memcg_kmem_stock_miss - __memcg_kmem_charge_local: this CPU's stock
 * did not hold the charge (the counters are charged next):
 * memcg_kmem_domain, memcg_stock_consume (miss). */
TRACEPOINT_SHARED(trace_memcg_kmem_stock_miss,
		  (&trace_memcg_kmem_domain_key,
		   &trace_memcg_stock_consume_key),
		  (gfp_t gfp, int order, struct mem_cgroup *memcg,
		   struct memcg_stock_pcp *stock),
		  (gfp, order, memcg, stock))

/* trace_memcg_kmem_charged_alloc - a charged allocation returns the page
 * of a charge the stock did not serve (handle: the domain charged, or
 * NULL for nobody): memcg_kmem_commit, mm_page_alloc. */
TRACEPOINT_SHARED(trace_memcg_kmem_charged_alloc,
		  (&trace_memcg_kmem_commit_key, &trace_mm_page_alloc_key),
		  (struct page *page, struct mem_cgroup *handle, int order,
		   gfp_t gfp),
		  (page, handle, order, gfp))

/* trace_memcg_kmem_uncharge_slow - a freed page's charge the stock did not
 * take (why: enum stock_return, mm/memcg/stock.h): memcg_kmem_uncharge,
 * and memcg_stock_drain (over_threshold) if the stock was full. */
TRACEPOINT_SHARED(trace_memcg_kmem_uncharge_slow,
		  (&trace_memcg_kmem_uncharge_key,
		   &trace_memcg_stock_drain_key),
		  (struct mem_cgroup *memcg, unsigned long nr_pages,
		   struct page *page, int why),
		  (memcg, nr_pages, page, why))

/* task:task_fork_refused - a fork into memcg failed (recorded only when
 * err is negative). */
TRACEPOINT(task_fork_refused, trace_task_fork_refused,
	   (struct mem_cgroup *memcg, int err), (memcg, err))

/* memcg:memcg_domain_dying - rmdir: the domain leaves the tree. */
TRACEPOINT(memcg_domain_dying, trace_memcg_domain_dying,
	   (struct mem_cgroup *memcg), (memcg))

/* memcg:memcg_domain_free - its last reference is gone: freed. */
TRACEPOINT(memcg_domain_free, trace_memcg_domain_free,
	   (struct mem_cgroup *memcg), (memcg))

/* static_key:static_key_patch - a key's sites were rewritten. */
TRACEPOINT(static_key_patch, trace_static_key_patch,
	   (struct static_key *key, bool enable), (key, enable))

#endif
