// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_charge.c - charging domains for pages (Linux 2012:
 * __mem_cgroup_try_charge, mem_cgroup_do_charge, memcg_charge_kmem in
 * mm/memcontrol.c), and the map of the kernel-memory charge path.
 *
 * THE MAP: who calls what, from the page allocator to the counters. Each
 * line that names functions ends with the file that defines them ("here":
 * this file); tests/tree/charge_map.t checks that they are there.
 * MAP BEGIN
 * alloc_pages()                                          mm/page_alloc.c
 *   nobody pays (key off, root...): alloc_pages_uncharged() mm/page_alloc.c
 *   who pays: memcg_kmem_payer()                         mm/memcg_hooks.h
 *   charge, allocate, commit: alloc_pages_charged()      mm/page_alloc.c
 *     1. charge: memcg_kmem_charge_pages()          mm/memcg/kmem_hooks.c
 *        irqs off, the stock: consume_stock()           mm/memcg/stock.h
 *        a miss: charge_pages_counters()            mm/memcg/kmem_hooks.c
 *          irqs off, the exact charge without a stock:  mm/memcg/res_counter.h
 *            __res_counter_try_charge_two()       mm/memcg/res_counter.h
 *          else memcg_charge_kmem_counters(), charge_kmem()         here
 *            a batch, else exactly: charge_res_kmem()               here
 *              each counter: res_counter_charge()  mm/memcg/res_counter.c
 *            the surplus to this CPU's stock: refill_stock() mm/memcg/stock.c
 *            refused: drain_all_stock()                 mm/memcg/stock.c
 *            and user_memory_reclaim()            mm/memcg/user_memory.c
 *     2. allocate: __alloc_pages()                mm/page_alloc_internal.h
 *        irqs off, this CPU's list: pcp_alloc_page()           mm/pcp.h
 *     3. commit: memcg_kmem_commit_charge()              mm/memcg_hooks.h
 *        or, no page: memcg_kmem_cancel_charge()    mm/memcg/kmem_hooks.c
 *
 * free_accounted_pages()                                 mm/page_alloc.c
 *   1. uncharge: memcg_kmem_uncharge_pages()        mm/memcg/kmem_hooks.c
 *      memcg_uncharge_kmem()                                        here
 *        irqs off, the stock: stock_return_kmem()       mm/memcg/stock.h
 *        the stock took nothing: memcg_uncharge_kmem_counters()     here
 *   2. free: __free_pages()                       mm/page_alloc_internal.h
 *      irqs off, this CPU's list: pcp_free_page()              mm/pcp.h
 * MAP END
 *
 * User pages (hog, cache) enter at mem_cgroup_try_charge, from
 * mm/memcg/user_memory.c; slab pages of a domain's child caches at
 * memcg_charge_kmem, from mm/memcg/memcg_slab.c.
 *
 * res is charged before kmem, and given back if kmem refuses: a kernel
 * page is both. With the kmem limit below the user limit (configuration
 * 2), kmem is what refuses; with it above (configuration 3), res refuses
 * first and the sum of user and kernel memory is what is capped.
 */
#include "mm/memcg/memcontrol.h"

#include <errno.h>

#include "kernel/task/task.h"
#include "mm/memcg/memcg_oom.h"
#include "mm/page.h"
#include "mm/memcg/stock.h"
#include "mm/memcg/user_memory.h"

/* Pages reclaimed at least per attempt (Linux: SWAP_CLUSTER_MAX). */
#define MEMCG_RECLAIM_BATCH 32

/*
 * stock_could_cover - could draining the stocks make a charge of nr_pages
 * fit under over_limit's res limit (or kmem limit, if kmem)? Only charge
 * stocked for its subtree counts against that limit (Linux's
 * drain_all_stock likewise skips CPUs whose stock belongs elsewhere).
 * Once the subtree's stocks are empty - a domain stuck at its limit
 * charges no batches, so nothing refills them - a refused charge costs no
 * IPI.
 */
static bool stock_could_cover(struct mem_cgroup *over_limit,
			      unsigned int nr_pages, bool kmem)
{
	struct res_counter *c = kmem ? &over_limit->kmem : &over_limit->res;
	int64_t margin = res_counter_margin(c) / PAGE_SIZE;
	int64_t stocked = (int64_t)memcg_stock_pages_subtree(over_limit, kmem);

	return stocked > 0 && margin + stocked >= (int64_t)nr_pages;
}

/*
 * mem_cgroup_do_charge - charge res once: a batch of pages if the stock is
 * on (the surplus goes to this CPU's stock), else exactly nr_pages; and if
 * the batch does not fit under the limits, exactly nr_pages (Linux's
 * CHARGE_RETRY), so that a small limit is used to the last page. On
 * failure, *fail_res is the counter that refused the exact charge.
 */
static int mem_cgroup_do_charge(struct mem_cgroup *memcg,
				unsigned int nr_pages,
				struct res_counter **fail_res)
{
	if (memcg_stock_on() && nr_pages < CHARGE_BATCH &&
	    res_counter_charge_quiet(&memcg->res,
				     (int64_t)CHARGE_BATCH * PAGE_SIZE,
				     fail_res) == 0) {
		refill_stock(memcg, CHARGE_BATCH - nr_pages, false);
		return 0;
	}
	/* No batch, or it did not fit: the exact charge, counted. */
	return res_counter_charge(&memcg->res, (int64_t)nr_pages * PAGE_SIZE,
				  fail_res);
}

int mem_cgroup_try_charge(struct mem_cgroup *memcg, gfp_t gfp,
			  unsigned int nr_pages,
			  struct mem_cgroup **over_limit)
{
	int retries = MEM_CGROUP_RECLAIM_RETRIES;
	struct mem_cgroup *mem_over_limit;
	struct res_counter *fail_res;
	bool drained = false;

	if (mem_cgroup_is_root(memcg))
		return 0;  /* the root is never charged */

	/* 1. Pages charged in advance, waiting in this CPU's stock. */
	if (consume_stock(memcg, nr_pages, false))
		return 0;

	for (;;) {
		unsigned long reclaimed;

		/* 2. The counters: a batch, or exactly what is needed. */
		if (mem_cgroup_do_charge(memcg, nr_pages, &fail_res) == 0)
			return 0;
		mem_over_limit = mem_cgroup_from_res(fail_res);
		memcg_v2_event(mem_over_limit, MEMCG_MAX, 1);

		/* Draining and reclaim wait for other CPUs and free pages:
		 * not for callers that may not wait. */
		if (gfp & __GFP_ATOMIC)
			break;

		/* 3. Charge idle in other CPUs' stocks may be what fills the
		 * limit: give it back, and try again - but only if it could
		 * make room (stock_could_cover), since a drain interrupts
		 * every CPU and a fork bomb at its limit is refused thousands
		 * of times a second. */
		if (!drained) {
			drained = true;
			if (stock_could_cover(mem_over_limit, nr_pages,
					      false)) {
				drain_all_stock(mem_over_limit);
				continue;
			}
		}

		/* 4. Reclaim the cache pages of the subtree over its limit -
		 * also when more than one page is needed (a kernel stack is
		 * four: the 2012 series reclaimed for multi-page charges too)
		 * - and retry while that makes room. */
		if (retries-- <= 0)
			break;
		reclaimed = user_memory_reclaim(mem_over_limit,
						nr_pages > MEMCG_RECLAIM_BATCH ?
						nr_pages : MEMCG_RECLAIM_BATCH);
		if (!reclaimed && res_counter_margin(&mem_over_limit->res) <
					  (int64_t)nr_pages * PAGE_SIZE)
			break;
	}
	if (over_limit)
		*over_limit = mem_over_limit;
	return -ENOMEM;
}

void mem_cgroup_uncharge(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	if (mem_cgroup_is_root(memcg))
		return;
	res_counter_uncharge(&memcg->res, (int64_t)nr_pages * PAGE_SIZE);
	memcg_oom_recover(memcg);
}

/*
 * charge_res_kmem - bytes to memcg's res counter, then to its kmem
 * counter (each up its chain), all or nothing: res is given back if kmem
 * refuses. A refusal is counted in the refusing counter's failcnt unless
 * quiet. Returns 0, or -ENOMEM with *fail the counter that refused.
 */
static int charge_res_kmem(struct mem_cgroup *memcg, int64_t bytes,
			   bool quiet, struct res_counter **fail)
{
	int (*charge)(struct res_counter *, int64_t, struct res_counter **) =
		quiet ? res_counter_charge_quiet : res_counter_charge;

	if (charge(&memcg->res, bytes, fail))
		return -ENOMEM;
	if (charge(&memcg->kmem, bytes, fail)) {
		res_counter_uncharge(&memcg->res, bytes);
		return -ENOMEM;
	}
	return 0;
}

/*
 * charge_kmem - charge nr_pages of kernel memory to memcg's counters, or
 * refuse. The steps, tried in turn until one makes the charge fit:
 *
 *   1. a batch of CHARGE_BATCH pages, if this CPU's stock takes kernel
 *      charge (the caller stocks the surplus). A batch that does not fit
 *      is declined quietly: no failcnt;
 *   2. exactly nr_pages, so that a small limit is used to the last page;
 *      a refusal of this one is counted in the refusing counter's
 *      failcnt (and, in cgroup v2, in memory.events' max);
 *   3. once, if other CPUs' stocks hold charge of the refusing subtree
 *      that would make room: drain them, and go back to 2;
 *   4. if res refused (user pages fill the limit): reclaim the subtree's
 *      cache pages, and go back to 2 while that makes room, up to
 *      MEM_CGROUP_RECLAIM_RETRIES times. Kernel pages cannot be
 *      reclaimed: a refusal by kmem is final.
 *
 * __GFP_ATOMIC callers stop after step 2: steps 3 and 4 wait for other
 * CPUs. Returns 0 with *charged the pages charged (nr_pages, or a batch),
 * or -ENOMEM.
 */
static int charge_kmem(struct mem_cgroup *memcg, gfp_t gfp,
		       unsigned int nr_pages, unsigned int *charged)
{
	unsigned int batch = memcg_stock_takes_kmem(nr_pages) ? CHARGE_BATCH
							      : nr_pages;
	int64_t bytes = (int64_t)nr_pages * PAGE_SIZE;
	int retries = MEM_CGROUP_RECLAIM_RETRIES;
	bool drained = false;

	for (;;) {
		struct res_counter *fail;
		struct mem_cgroup *over;
		bool kmem_refused;

		/* 1 and 2 */
		if (charge_res_kmem(memcg, (int64_t)batch * PAGE_SIZE,
				    batch > nr_pages, &fail) == 0) {
			*charged = batch;
			return 0;
		}
		if (batch > nr_pages) {
			batch = nr_pages;
			continue;
		}
		kmem_refused = !res_counter_is_ancestor(&memcg->res, fail);
		over = kmem_refused ? mem_cgroup_from_kmem(fail)
				    : mem_cgroup_from_res(fail);
		if (!kmem_refused)
			memcg_v2_event(over, MEMCG_MAX, 1);
		if (gfp & __GFP_ATOMIC)
			return -ENOMEM;
		/* 3 */
		if (!drained) {
			drained = true;
			if (stock_could_cover(over, nr_pages, kmem_refused)) {
				drain_all_stock(over);
				continue;
			}
		}
		/* 4 */
		if (kmem_refused || retries-- <= 0)
			return -ENOMEM;
		if (!user_memory_reclaim(over, nr_pages > MEMCG_RECLAIM_BATCH ?
						       nr_pages :
						       MEMCG_RECLAIM_BATCH) &&
		    res_counter_margin(&over->res) < bytes)
			return -ENOMEM;
	}
}

int memcg_charge_kmem_counters(struct mem_cgroup *memcg, gfp_t gfp,
			       unsigned int nr_pages)
{
	unsigned int charged;

	/* cgroup v2 OOM-kills in the refusing domain and tries again
	 * (mm/memcg/memcg_v2.c); the 2012 design gives up at once, and the
	 * references the caller took for the pages go with the charge. */
	while (charge_kmem(memcg, gfp, nr_pages, &charged)) {
		if (!memcg_v2_charge_refused(memcg, gfp, nr_pages)) {
			mem_cgroup_put_many(memcg, nr_pages);
			return -ENOMEM;
		}
	}
	/* A batch's surplus goes to this CPU's stock, a reference with
	 * each of its pages. */
	if (charged > nr_pages) {
		mem_cgroup_get_many(memcg, charged - nr_pages);
		refill_stock(memcg, charged - nr_pages, true);
	}
	return 0;
}

int memcg_charge_kmem(struct mem_cgroup *memcg, gfp_t gfp,
		      unsigned int nr_pages)
{
	/* Stocked kernel charge comes with its references. */
	if (consume_stock(memcg, nr_pages, true))
		return 0;
	mem_cgroup_get_many(memcg, nr_pages);
	return memcg_charge_kmem_counters(memcg, gfp, nr_pages);
}

void memcg_uncharge_kmem_counters(struct mem_cgroup *memcg,
				  unsigned int nr_pages)
{
	int64_t bytes = (int64_t)nr_pages * PAGE_SIZE;
	struct res_counter *underflow;

	/* The reverse order of the charge: res >= kmem at every moment. A
	 * counter left below zero is a bug: reported, the rest given back. */
	underflow = __res_counter_try_uncharge_two(&memcg->kmem, &memcg->res,
						   bytes);
	if (unlikely(underflow))
		res_counter_uncharge_two_underflow(&memcg->kmem, &memcg->res,
						   underflow, bytes);
	memcg_oom_recover(memcg);
	/* Last: the last reference frees a removed domain. */
	mem_cgroup_put_many(memcg, nr_pages);
}

void memcg_uncharge_kmem(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	if (!stock_return_kmem(memcg, nr_pages))
		memcg_uncharge_kmem_counters(memcg, nr_pages);
}

void memcg_account_kernel_stack(struct page *stack, int account)
{
	struct mem_cgroup *memcg = root_mem_cgroup;  /* not charged */
	long pages = (long)account * (THREAD_SIZE / PAGE_SIZE);

	if (stack->flags & PG_kmemcg)
		memcg = stack->memcg;
	__atomic_add_fetch(&memcg->nr_kernel_stack, pages, __ATOMIC_RELAXED);
}
