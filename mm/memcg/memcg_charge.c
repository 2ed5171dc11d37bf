// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_charge.c - charging domains for pages (Linux 2012:
 * __mem_cgroup_try_charge, mem_cgroup_do_charge, memcg_charge_kmem in
 * mm/memcg/memcontrol.c).
 *
 * The whole path of a kernel stack, from the top:
 *
 *   alloc_pages(THREADINFO_GFP_ACCOUNTED, 2)               mm/buddy.c
 *     memcg_kmem_new_page(gfp, &handle, 2)                 mm/memcg/kmem_hooks.h
 *       __memcg_kmem_new_page: which domain? accounted?    mm/memcg/kmem_hooks.c
 *         memcg_charge_kmem(memcg, gfp, 4)                 here
 *           mem_cgroup_try_charge(memcg, gfp, 4)   res:    here
 *             consume_stock(memcg, 4)                      mm/memcg/stock.c
 *             mem_cgroup_do_charge: res_counter_charge     mm/memcg/res_counter.c
 *           res_counter_charge(&memcg->kmem, 16K)  kmem:   mm/memcg/res_counter.c
 *     <take the pages from the free lists>
 *     memcg_kmem_commit_page(page, handle, 2)              mm/memcg/kmem_hooks.c
 *
 * and user pages (hog, cache) enter at mem_cgroup_try_charge, from
 * mm/memcg/user_memory.c.
 *
 * res is charged before kmem, and given back if kmem refuses: a kernel
 * page is both. With the kmem limit below the user limit (configuration
 * 2), kmem is what refuses; with it above (configuration 3), res refuses
 * first and the sum of user and kernel memory is what is capped.
 */
#include "mm/memcg/memcontrol.h"

#include <errno.h>

#include "kernel/task.h"
#include "mm/memcg/memcg_oom.h"
#include "mm/page.h"
#include "mm/memcg/stock.h"
#include "mm/memcg/user_memory.h"

/* Pages reclaimed at least per attempt (Linux: SWAP_CLUSTER_MAX). */
#define MEMCG_RECLAIM_BATCH 32

/*
 * stock_could_cover - could draining the stocks make a charge of nr_pages
 * fit under over_limit's res limit? Only pages stocked for its subtree
 * count against that limit (Linux's drain_all_stock drains only the CPUs
 * whose stock belongs to the subtree, for the same reason). Once the
 * subtree's stocks are empty - a domain stuck at its limit charges no
 * batches, so nothing refills them - a refused charge costs no IPI.
 */
static bool stock_could_cover(struct mem_cgroup *over_limit,
			      unsigned int nr_pages)
{
	int64_t margin = res_counter_margin(&over_limit->res) / PAGE_SIZE;
	int64_t stocked = (int64_t)memcg_stock_pages_subtree(over_limit);

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
	unsigned int batch = nr_pages;

	if (READ_ONCE(memcg_stock_enabled) && nr_pages < CHARGE_BATCH)
		batch = CHARGE_BATCH;
	if (batch > nr_pages) {
		if (res_counter_try_charge(&memcg->res,
					   (int64_t)batch * PAGE_SIZE,
					   fail_res) == 0) {
			refill_stock(memcg, batch - nr_pages);
			return 0;
		}
		/* The batch was only a wish; the exact charge may fit. */
	}
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
	if (consume_stock(memcg, nr_pages))
		return 0;

	for (;;) {
		unsigned long reclaimed;

		/* 2. The counters: a batch, or exactly what is needed. */
		if (mem_cgroup_do_charge(memcg, nr_pages, &fail_res) == 0)
			return 0;
		mem_over_limit = mem_cgroup_from_res(fail_res);

		/* Draining and reclaim wait for other CPUs and free pages:
		 * not for callers that may not wait. */
		if (gfp & __GFP_ATOMIC)
			break;

		/* 3. Charged pages idle in other CPUs' stocks may be what
		 * fills the limit: give them back, and try again - but only
		 * if they could make room (stock_could_cover), since a drain
		 * interrupts every CPU and a fork bomb at its limit is
		 * refused thousands of times a second. */
		if (!drained) {
			drained = true;
			if (stock_could_cover(mem_over_limit, nr_pages)) {
				drain_all_stock(mem_over_limit);
				continue;
			}
		}

		/* 4. Reclaim the cache pages of the subtree over its limit -
		 * also when more than one page is needed (a kernel stack is
		 * four: the 2012 series' "reclaim when more than one page
		 * needed") - and retry while that makes room. */
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

int memcg_charge_kmem(struct mem_cgroup *memcg, gfp_t gfp,
		      unsigned int nr_pages)
{
	struct res_counter *fail_res;
	int ret;

	/* res first: user + kernel memory (may be served by the stock). */
	ret = mem_cgroup_try_charge(memcg, gfp, nr_pages, NULL);
	if (ret)
		return ret;

	/* Then kmem: kernel memory alone, never stocked. */
	ret = res_counter_charge(&memcg->kmem, (int64_t)nr_pages * PAGE_SIZE,
				 &fail_res);
	if (ret)
		mem_cgroup_uncharge(memcg, nr_pages);
	return ret;
}

void memcg_uncharge_kmem(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	/* The reverse order of the charge: res >= kmem at every moment. */
	res_counter_uncharge(&memcg->kmem, (int64_t)nr_pages * PAGE_SIZE);
	mem_cgroup_uncharge(memcg, nr_pages);
}

void memcg_account_kernel_stack(struct page *stack, int account)
{
	struct mem_cgroup *memcg = root_mem_cgroup;  /* not charged */
	long pages = (long)account * (THREAD_SIZE / PAGE_SIZE);

	if (stack->flags & PG_kmemcg)
		memcg = stack->memcg;
	__atomic_add_fetch(&memcg->nr_kernel_stack, pages, __ATOMIC_RELAXED);
}
