/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/stock.h - the per-CPU charge stock (Linux 2012: memcg_stock_pcp in
 * mm/memcg/memcontrol.c).
 *
 * Charging a res counter takes a lock on it and on each of its ancestors:
 * on a busy domain, every CPU would fight for the same locks. So each CPU
 * charges a batch of CHARGE_BATCH pages at once and keeps what it did not
 * need in its stock: pages already charged to one domain (the cached one),
 * not yet used. The next charges for that domain on this CPU take pages
 * from the stock, touching no shared data.
 *
 * Stocked pages count in the domain's res usage (res usage = user + kmem
 * + stocked, SPEC 5.3), so they must be given back - drained - when the
 * domain is removed, when its limit is lowered, and when a charge fails
 * (another CPU's stock may be what fills the limit).
 */
#ifndef MM_STOCK_H
#define MM_STOCK_H

#include <stdbool.h>

#include "kernel/platform.h"

struct mem_cgroup;

#define CHARGE_BATCH 32U  /* pages charged at once to fill a stock */

struct memcg_stock_pcp {
	struct mem_cgroup *cached;  /* the domain the pages are charged to;
				     * never the root */
	unsigned int nr_pages;      /* charged, not yet used */
} __cacheline_aligned;

/* One per CPU, indexed by smp_processor_id(); each used with interrupts
 * off by its own CPU only (a drain on another CPU's behalf is an IPI). */
extern struct memcg_stock_pcp memcg_stock[NR_CPUS];

/* Stocks in use (the default). Off, every charge goes to the counters, for
 * the page_order0_nostock benchmark: memcg_stock_set_enabled(). */
extern bool memcg_stock_enabled;

/**
 * consume_stock - try to consume stocked charge on this CPU.
 * @memcg:    the domain to charge
 * @nr_pages: how many pages to charge
 *
 * The charge is served only if @memcg matches this CPU's cached domain and
 * at least @nr_pages are in the stock. Failure to service an allocation
 * will refill the stock (the caller charges a batch and refill_stock()s
 * the surplus).
 *
 * Returns true if successful, false otherwise.
 */
bool consume_stock(struct mem_cgroup *memcg, unsigned int nr_pages);

/**
 * refill_stock - keep nr_pages charged to memcg in this CPU's stock.
 * @memcg:    the domain the pages are charged to
 * @nr_pages: how many
 *
 * If the stock holds another domain's pages, they are drained (uncharged)
 * first. A dying domain is not stocked: its pages are uncharged at once,
 * since nothing would ever drain them again.
 */
void refill_stock(struct mem_cgroup *memcg, unsigned int nr_pages);

/**
 * drain_all_stock - give back the stocked pages of memcg's subtree on
 * every CPU.
 * @memcg: the subtree (a stock counts if its domain's res counter is
 *         charged to @memcg's), or NULL for every stock
 *
 * Runs drain_local_stock on every CPU (smp_call_function_all) and waits:
 * not from interrupt context.
 */
void drain_all_stock(struct mem_cgroup *memcg);

/* memcg_stocks_hold_any - does some CPU's stock hold pages at all? A
 * racy peek, to spare an IPI to every CPU when nothing is stocked. */
bool memcg_stocks_hold_any(void);

/* memcg_stock_pages_subtree - pages stocked on all CPUs for top's
 * subtree (the stocks drain_all_stock(top) would drain): a racy peek, to
 * decide whether draining could make a refused charge fit. */
unsigned long memcg_stock_pages_subtree(struct mem_cgroup *top);

/* memcg_stock_pages - pages stocked for memcg itself, on all CPUs (a
 * snapshot, for memory.stat's stock). */
unsigned long memcg_stock_pages(struct mem_cgroup *memcg);

/* memcg_stock_set_enabled - switch the stocks on or off (draining them
 * all when switched off). */
void memcg_stock_set_enabled(bool on);

#endif
