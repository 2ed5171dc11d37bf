/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/stock.h - the per-CPU charge stock (Linux 2012: memcg_stock_pcp
 * in mm/memcontrol.c; the kmem part follows later Linux's obj_stock).
 *
 * Charging the shared counters on every page would make every CPU write
 * the same cache lines. So a CPU charges a batch of CHARGE_BATCH pages at
 * once and keeps what it did not need in its stock, for one domain (the
 * cached one). Later charges for that domain on this CPU take pages from
 * the stock and write only this CPU's data.
 *
 * A stock holds two kinds of charge:
 *   nr_pages  charged to res only: served to user pages;
 *   nr_kmem   charged to res and to kmem: served to kernel pages. Each of
 *             these also holds one reference on the domain, as the page
 *             it is handed to will (mm/memcg/memcontrol.h, refcnt).
 * A kernel page freed on a CPU whose stock caches its domain gives its
 * charge back to the stock, not to the counters, as long as the stock
 * then holds at most STOCK_KMEM_HIGH kernel pages.
 *
 * So the counters include what the stocks hold (docs/interface.md):
 *   kmem usage = kernel pages owned + nr_kmem stocked on all CPUs
 *   res usage  = user pages + kmem usage + nr_pages stocked
 * Stocked charge is given back - drained - when the domain is removed,
 * when a limit is lowered, before a usage figure is shown, and when a
 * charge fails that the stocked pages could make fit.
 *
 * Which rule keeps a domain named by a stock alive, for each reader, is
 * said at the top of mm/memcg/stock.c.
 */
#ifndef MM_STOCK_H
#define MM_STOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/base/platform.h"
#include "mm/memcg/memcg_trace.h"
#include "mm/memcg/obj_owner.h"
#include "mm/memcg_hooks.h"

struct mem_cgroup;

#define CHARGE_BATCH 32U  /* pages charged at once to fill a stock */
/* The most kernel pages a stock takes back from freed pages. */
#define STOCK_KMEM_HIGH (2 * CHARGE_BATCH)

struct memcg_stock_pcp {
	struct mem_cgroup *cached;  /* the domain charged; never the root */
	unsigned int nr_pages;      /* charged to res only */
	unsigned int nr_kmem;       /* charged to res and kmem */
	struct obj_stock obj;       /* `objects`: bytes of an owner record
				     * (mm/memcg/obj_owner.h) */
} __cacheline_aligned;

/* One per CPU, each written with interrupts off by its own CPU only (a
 * drain for another CPU is an IPI that runs on the stock's CPU). It lives
 * in the CPU's own area (this_cpu_area, kernel/base/platform.h): the hot paths
 * find this CPU's stock with one load from %gs, not from an index. */
_Static_assert(sizeof(struct memcg_stock_pcp) <= CPU_AREA_SIZE,
	       "the stock must fit in this_cpu_area()");

static inline struct memcg_stock_pcp *this_cpu_stock(void)
{
	return this_cpu_area();
}

static inline struct memcg_stock_pcp *memcg_stock_of(unsigned int cpu)
{
	return cpu_area(cpu);
}

/* On while the stocks are off (memcg_stock_set_enabled(false)): every
 * charge goes to the counters, for the page_order0_nostock benchmark and
 * the tests that charge the counters alone. A static key, like the other
 * switches only a benchmark or a test turns (line_transfer_key): in the
 * default, stocks on, the stocks' fast paths pay a 5-byte NOP for it. */
extern struct static_key memcg_stock_off_key;

static inline bool memcg_stock_on(void)
{
	return !static_branch_unlikely(&memcg_stock_off_key);
}

/* Kernel pages stocked too (the default). Off, every kernel charge is made
 * exactly, on the shared res and kmem counters, with a reference per
 * page, while user charges still use the stock: the charge_smp_oldkmem
 * benchmark and the host benchmark's comparison (memcg_stock_set_kmem). */
extern bool memcg_stock_kmem;

/* memcg_stock_takes_kmem - would a kernel charge of nr_pages that this
 * CPU's stock did not serve charge a batch to fill it
 * (memcg_charge_kmem_counters), rather than exactly nr_pages? */
static inline bool memcg_stock_takes_kmem(unsigned int nr_pages)
{
	return memcg_stock_on() && READ_ONCE(memcg_stock_kmem) &&
	       nr_pages < CHARGE_BATCH;
}

/* The most kernel pages a stock keeps when they come back from freed
 * pages: STOCK_KMEM_HIGH, or 0 while kernel pages are not stocked. */
extern unsigned int stock_kmem_high;

/* stock_serves - is stock stocked for memcg, with nr_pages or more of the
 * kind asked for? consume_stock's test, with interrupts off; its
 * tracepoint's recorder asks it too, just before. */
static inline bool stock_serves(const struct memcg_stock_pcp *stock,
				const struct mem_cgroup *memcg,
				unsigned int nr_pages, bool kmem)
{
	return stock->cached == memcg &&
	       (kmem ? stock->nr_kmem : stock->nr_pages) >= nr_pages;
}

/* __stock_take - take nr_pages of the kind asked for from stock, if it
 * serves them (stock_serves), with interrupts already off. */
static inline bool __stock_take(struct memcg_stock_pcp *stock,
				struct mem_cgroup *memcg, unsigned int nr_pages,
				bool kmem)
{
	unsigned int *pool = kmem ? &stock->nr_kmem : &stock->nr_pages;

	if (!stock_serves(stock, memcg, nr_pages, kmem))
		return false;
	*pool -= nr_pages;
	return true;
}

/**
 * consume_stock - serve a charge from this CPU's stock, if it can.
 * @memcg:    the domain to charge
 * @nr_pages: how many pages
 * @kmem:     a kernel charge (res and kmem) rather than a user one (res)
 *
 * Only this CPU's stock is looked at, in a short interrupts-off section
 * of its own, and only if it is stocked for @memcg with @nr_pages or more
 * of the kind asked for. Nothing shared is written. When the stock cannot
 * serve, the caller charges the counters, usually a whole batch, and
 * hands the surplus to refill_stock().
 *
 * Returns true if the pages were taken from the stock.
 */
static inline bool consume_stock(struct mem_cgroup *memcg,
				 unsigned int nr_pages, bool kmem)
{
	struct memcg_stock_pcp *stock;
	unsigned long flags;
	bool hit;

	if (!memcg_stock_on())
		return false;
	flags = local_irq_save();
	stock = this_cpu_stock();
	trace_memcg_stock_consume(memcg, nr_pages, stock, kmem);
	hit = __stock_take(stock, memcg, nr_pages, kmem);
	local_irq_restore(flags);
	return hit;
}

/**
 * refill_stock - keep charge for memcg in this CPU's stock.
 * @memcg:    the domain the pages are charged to
 * @nr_pages: how many
 * @kmem:     charged to kmem too (each with a reference on @memcg)
 *
 * If the stock holds another domain's charge, that is drained first. A
 * dying domain is never stocked: its charge is given back at once, since
 * no drain would come for it again.
 */
void refill_stock(struct mem_cgroup *memcg, unsigned int nr_pages, bool kmem);

/**
 * stock_return_kmem - a kernel page of memcg was freed: put its charge in
 * this CPU's stock, if the stock caches memcg and has room for it.
 * @memcg:    the page's domain
 * @nr_pages: its pages
 *
 * The stock keeps at most stock_kmem_high kernel pages; past that, and
 * when it caches another domain, nothing changes and false is returned:
 * the caller uncharges the counters. A stock that still caches memcg has
 * not been drained for rmdir yet (a drain forgets the domain), so memcg
 * may be stocked here. One short interrupts-off section of its own.
 */
static inline bool stock_return_kmem(struct mem_cgroup *memcg,
				     unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock;
	bool returned = false;
	unsigned long flags;

	if (!memcg_stock_on())
		return false;
	flags = local_irq_save();
	stock = this_cpu_stock();
	/* stock_kmem_high is read plainly: it changes only by
	 * memcg_stock_set_kmem, which drains every stock after, so a stale
	 * value does no harm. */
	if (stock->cached == memcg) {
		if (likely(stock->nr_kmem + nr_pages <= stock_kmem_high)) {
			stock->nr_kmem += nr_pages;
			returned = true;
			trace_memcg_stock_refill(memcg, nr_pages,
						 stock->nr_kmem,
						 TRACE_REFILL_FREED);
		} else {
			trace_memcg_stock_drain_over(memcg, nr_pages,
						     stock->nr_kmem);
		}
	}
	local_irq_restore(flags);
	return returned;
}

/**
 * drain_all_stock - give back the stocked charge of memcg's subtree on
 * every CPU.
 * @memcg: the subtree (a stock counts if its domain's res counter is
 *         charged to @memcg's), or NULL for every stock
 *
 * Runs by IPI on the CPUs whose stock holds charge of the subtree, and
 * only on them, as Linux's drain_all_stock (with NULL, and in `objects`,
 * on every CPU), and waits for them: not from interrupt context, nor with
 * interrupts off. A stock refilled on another CPU while the drain looks
 * may be missed: the callers give charge back as well as they can, and
 * rmdir, which must not miss one, calls drain_all_stock_removed.
 * Returns how many CPUs drained.
 */
unsigned int drain_all_stock(struct mem_cgroup *memcg);

/*
 * drain_all_stock_removed - drain_all_stock on every CPU, for a domain
 * marked dying: once it returns, no stock names the domain, and none
 * will (refill_stock checks dying), nor is any CPU still looking at a
 * stock that did (the IPI waited for it).
 */
void drain_all_stock_removed(struct mem_cgroup *memcg);

/*
 * memcg_stock_pages_subtree - pages stocked on all CPUs for top's subtree
 * (those drain_all_stock(top) would give back): kernel ones only if kmem,
 * else both kinds (both are charged to res). A snapshot, to decide
 * whether draining could make a refused charge fit.
 */
unsigned long memcg_stock_pages_subtree(struct mem_cgroup *top, bool kmem);

/* memcg_stock_pages - pages stocked for memcg itself on all CPUs, both
 * kinds; memcg_stock_kmem_pages - the kernel ones alone. Snapshots, for
 * memory.stat and check. */
unsigned long memcg_stock_pages(struct mem_cgroup *memcg);
unsigned long memcg_stock_kmem_pages(struct mem_cgroup *memcg);

/* memcg_stock_set_enabled - switch the stocks on or off (draining them
 * all when switched off). */
void memcg_stock_set_enabled(bool on);

/* memcg_stock_set_kmem - stock kernel charges (true) or charge the kmem
 * counter per page, as in 2012 (false); drains every stock. */
void memcg_stock_set_kmem(bool on);

#endif
