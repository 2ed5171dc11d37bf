/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcg_trace.h - memcg's tracepoints, the memcg: system (Linux:
 * include/trace/events/memcg.h). The sites are kernel/base/tracepoint.h's:
 * one line each in the code they watch, a 5-byte NOP while the event is
 * off. The events, their recorders (__trace_EVENT) and how they print are
 * in mm/memcg/memcg_trace.c.
 *
 * Every site hands its recorder the domain the code it watches has
 * already decided on; the tracer (kernel/trace/) only stores what the
 * recorders copy, and knows nothing of domains.
 */
#ifndef MM_MEMCG_MEMCG_TRACE_H
#define MM_MEMCG_MEMCG_TRACE_H

#include "kernel/base/tracepoint.h"
#include "mm/gfp.h"

struct mem_cgroup;
struct memcg_stock_pcp;
struct page;
struct res_counter;
struct trace_entry;

/* memcg_trace_set_domain - for a recorder: the domain's path into the
 * entry's domain field, or "none" for NULL. */
void memcg_trace_set_domain(struct trace_entry *e, struct mem_cgroup *memcg);

/* memcg:memcg_kmem_domain - who pays for an accounted allocation: the
 * domain, or nobody and why (memcg NULL: the recorder finds the reason). */
TRACEPOINT(memcg_kmem_domain, trace_memcg_kmem_domain,
	   (gfp_t gfp, int order, struct mem_cgroup *memcg),
	   (gfp, order, memcg))

/* memcg:memcg_stock_consume - is a charge of nr_pages served by this CPU's
 * stock (hit) or not (miss: the counters are charged next)? kmem: a
 * kernel charge (res and kmem) rather than a user one (res). The site is
 * just before the stock is looked at, interrupts off: the recorder reads
 * the stock through the pointer the site already has and works out what
 * consume_stock will do, so the site passes only what it holds and
 * computes nothing on the way past. An entry's arg[1] holds both flags:
 * TRACE_STOCK_HIT, TRACE_STOCK_KMEM. */
#define TRACE_STOCK_HIT 1u
#define TRACE_STOCK_KMEM 2u
TRACEPOINT(memcg_stock_consume, trace_memcg_stock_consume,
	   (struct mem_cgroup *memcg, unsigned int nr_pages,
	    struct memcg_stock_pcp *stock, bool kmem),
	   (memcg, nr_pages, stock, kmem))

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
 * (res_counter_set_domain). */
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

/* memcg:memcg_kmem_uncharge - a charged block is freed: its charge goes
 * back (memcg_kmem_uncharge_pages). */
TRACEPOINT(memcg_kmem_uncharge, trace_memcg_kmem_uncharge,
	   (struct page *page, struct mem_cgroup *memcg, int order),
	   (page, memcg, order))

/* Memcg's events at the page allocator's sites, which several events
 * share (one NOP for all of them): trace_mm_page_alloc_unaccounted and
 * trace_mm_page_alloc_charged, declared in mm/kmem_trace.h. */

/* memcg:memcg_domain_dying - rmdir: the domain leaves the tree. */
TRACEPOINT(memcg_domain_dying, trace_memcg_domain_dying,
	   (struct mem_cgroup *memcg), (memcg))

/* memcg:memcg_domain_free - its last reference is gone: freed. */
TRACEPOINT(memcg_domain_free, trace_memcg_domain_free,
	   (struct mem_cgroup *memcg), (memcg))

#endif
