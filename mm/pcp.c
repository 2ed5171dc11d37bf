// SPDX-License-Identifier: MIT
/*
 * mm/pcp.c - per-CPU lists of free order-0 pages, in front of the buddy
 * allocator (Linux: the per_cpu_pages of each zone).
 *
 * alloc_pages(gfp, 0) and free_pages(page, 0) come here. The common case
 * touches only this CPU's list: interrupts off (so that neither an
 * interrupt handler on this CPU nor a drain IPI sees a half-done list),
 * take or put a page, interrupts back on. No lock is shared with another
 * CPU, no cache line bounces.
 *
 * The buddy allocator is visited in batches: an empty list is refilled
 * with `batch` pages under the zone lock, and a list that reaches `high`
 * gives its `batch` coldest pages back. Pages on these lists are free (they
 * count in MemFree) but cannot merge with their buddies until drained:
 * drain_all_pages() empties every list when an allocation would otherwise
 * fail.
 *
 * On a NUMA machine a CPU's list holds pages of its own node: it is
 * refilled from its node's zone (others only when that one is empty), and
 * a page of another node freed here goes straight back to that node's
 * zone, so that the list keeps serving local memory.
 */
#include "mm/pcp.h"

#include "mm/buddy.h"

struct per_cpu_pages pcp_lists[NR_CPUS];

/*
 * Linux's zone_batchsize(): about a quarter of a thousandth of memory, at
 * most 512 KiB, rounded to 2^n - 1 (so that batches of neighbouring CPUs do
 * not keep hitting the same buddy pairs); at least 1. high is 6 batches.
 * 512 MiB of RAM gives batch 31, high 186.
 */
static int zone_batchsize(unsigned long pages)
{
	unsigned long batch = pages / 1024;
	unsigned long pow2 = 1;

	if (batch > (512 * 1024) / PAGE_SIZE)
		batch = (512 * 1024) / PAGE_SIZE;
	batch /= 4;
	batch += batch / 2;
	while (pow2 * 2 <= batch)
		pow2 *= 2;
	batch = pow2 - 1;
	return batch < 1 ? 1 : (int)batch;
}

void pcp_init(void)
{
	int batch = zone_batchsize(totalram_pages);

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &pcp_lists[cpu];

		pcp->count = 0;
		pcp->batch = batch;
		pcp->high = 6 * batch;
		INIT_LIST_HEAD(&pcp->list);
	}
}

/*
 * rmqueue_bulk - move up to count order-0 pages from the buddy allocator to
 * the list, from this CPU's node first, then from the others; returns how
 * many it moved. Local interrupts are off.
 */
static int rmqueue_bulk(int count, struct list_head *list)
{
	unsigned int local = numa_node_id();
	int moved = 0;

	for (unsigned int i = 0; i < nr_node_ids && moved < count; i++) {
		struct zone *zone = &node_zones[numa_fallback_node(local, i)];
		unsigned long flags = spin_lock_irqsave(&zone->lock);

		for (; moved < count; moved++) {
			struct page *page = __rmqueue(zone, 0);

			if (!page)
				break;
			page->flags = PG_pcp;
			list_add_tail(&page->lru, list);
		}
		spin_unlock_irqrestore(&zone->lock, flags);
	}
	return moved;
}

/*
 * free_pcppages_bulk - give up to count pages from the cold end of the list
 * back to the buddy allocator, each to its own node's zone (the list may
 * hold another node's pages after a fallback refill). Local interrupts are
 * off.
 */
static void free_pcppages_bulk(int count, struct per_cpu_pages *pcp)
{
	struct zone *locked = NULL;
	unsigned long flags = 0;

	while (count-- > 0 && !list_empty(&pcp->list)) {
		struct page *page = list_entry(pcp->list.prev, struct page,
					       lru);
		struct zone *zone = page_zone(page);

		if (zone != locked) {
			if (locked)
				spin_unlock_irqrestore(&locked->lock, flags);
			flags = spin_lock_irqsave(&zone->lock);
			locked = zone;
		}
		list_del_init(&page->lru);
		pcp->count--;
		page->flags = 0;
		__free_one_page(page, page_to_pfn(page), 0);
	}
	if (locked)
		spin_unlock_irqrestore(&locked->lock, flags);
}

struct page *pcp_refill_and_take(struct per_cpu_pages *pcp)
{
	pcp->count += rmqueue_bulk(pcp->batch, &pcp->list);
	if (list_empty(&pcp->list))
		return NULL;
	return pcp_take_first(pcp);
}

void pcp_free_foreign(struct page *page)
{
	struct zone *zone = page_zone(page);

	/* Another node's page: back to its own zone, so that this CPU's
	 * list keeps serving local memory. */
	spin_lock(&zone->lock);
	page->flags = 0;
	__free_one_page(page, page_to_pfn(page), 0);
	spin_unlock(&zone->lock);
}

void pcp_drain_batch(struct per_cpu_pages *pcp)
{
	free_pcppages_bulk(pcp->batch, pcp);
}

void pcp_free_page_slow(struct page *page)
{
	struct per_cpu_pages *pcp = &pcp_lists[smp_processor_id()];

	if (page->node != numa_node_id()) {
		pcp_free_foreign(page);
		return;
	}
	page->flags = PG_pcp;
	list_add(&page->lru, &pcp->list);
	pcp->count++;
	pcp_drain_batch(pcp);
}

void drain_local_pages(void)
{
	unsigned long flags = local_irq_save();
	struct per_cpu_pages *pcp = &pcp_lists[smp_processor_id()];

	free_pcppages_bulk(pcp->count, pcp);
	local_irq_restore(flags);
}

static void drain_local_pages_fn(void *unused)
{
	drain_local_pages();
}

void drain_all_pages(void)
{
	smp_call_function_all(drain_local_pages_fn, NULL);
}

unsigned long pcp_nr_pages(void)
{
	unsigned long total = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		total += READ_ONCE(pcp_lists[cpu].count);
	return total;
}
