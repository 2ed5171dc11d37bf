// SPDX-License-Identifier: MIT
/*
 * mm/buddy.c - the buddy allocator: physical memory for the whole kernel
 * (task stacks, page tables, slab pages behind kmalloc, user memory), in
 * blocks of 2^order contiguous 4 KiB frames, order 0 (4 KiB) to MAX_ORDER
 * (4 MiB). Linux: mm/page_alloc.c.
 *
 * Every free block is on the free list of its order, and its first page
 * carries PG_buddy and ->order. An allocated block's first page carries
 * PG_head and ->order, which free_pages() checks. The other pages of a
 * block have no flags.
 *
 * Order-0 pages go through the per-CPU lists of mm/pcp.c first; only
 * batches of them reach the code below.
 *
 * On a NUMA machine (mm/numa.h) each node has its own zone - its own free
 * lists and lock. An allocation is served from the zone of the node of the
 * CPU that asks, and from the other nodes only when that one is empty; a
 * freed block goes back to the zone of its own node (page->node), wherever
 * it is freed.
 *
 * This file is the buddy core: the free lists, splitting and merging.
 * The allocator's front (alloc_pages, free_pages, and a charged block's
 * way in and out) is mm/page_alloc.c; the checks of a free,
 * mm/free_check.c. The inlines they share: mm/page_alloc_internal.h.
 */
#include "mm/buddy.h"

#include <string.h>

#include "mm/page_alloc_internal.h"

struct zone node_zones[MAX_NUMNODES];
unsigned long totalram_pages;
bool page_poisoning = DEBUG_POISON_DEFAULT;  /* on in the debug build */

void zone_init(void)
{
	for (unsigned int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct zone *zone = &node_zones[nid];

		spin_lock_init(&zone->lock);
		for (int order = 0; order <= MAX_ORDER; order++) {
			INIT_LIST_HEAD(&zone->free_area[order].free_list);
			zone->free_area[order].nr_free = 0;
		}
		zone->free_pages = 0;
		zone->present_pages = 0;
		zone->node = nid;
		zone->name = "Normal";
	}
}

/* --- the free lists ------------------------------------------------------- */

static inline void add_to_free_list(struct zone *zone, struct page *page,
				    unsigned int order)
{
	struct free_area *area = &zone->free_area[order];

	page->flags = PG_buddy;
	page->order = order;
	list_add(&page->lru, &area->free_list);
	area->nr_free++;
}

static inline void del_page_from_free_list(struct zone *zone,
					   struct page *page,
					   unsigned int order)
{
	list_del_init(&page->lru);
	page->flags = 0;
	page->order = 0;
	zone->free_area[order].nr_free--;
}

/* The buddy of the block at pfn: the other half of the block of order+1. */
static inline uint64_t __find_buddy_pfn(uint64_t pfn, unsigned int order)
{
	return pfn ^ (1ul << order);
}

/*
 * page_is_buddy - can the block at buddy_pfn be merged with ours (of this
 * order)? It can if
 *   (a) the buddy is a frame of mem_map (not past the end of RAM),
 *   (b) the buddy is free and in the buddy allocator: PG_buddy (not
 *       allocated, not reserved, not on a per-CPU list),
 *   (c) the buddy heads a free block of the same order (a smaller free
 *       block there means part of the buddy is still allocated),
 *   (d) the buddy is in the same zone: on the same node (page->node is
 *       set at boot and never changes).
 *
 * We hold the zone lock, but the buddy may be an allocated page whose owner
 * is writing its flags right now (PG_head, PG_pcp, 0, ...) without it. That
 * is harmless: PG_buddy is only ever set or cleared under the zone lock, so
 * whichever value we read, the answer to (b) is right. READ_ONCE says that
 * the read is racy on purpose.
 */
static inline bool page_is_buddy(uint64_t buddy_pfn, unsigned int order,
				 unsigned int node)
{
	struct page *buddy;

	if (buddy_pfn >= max_pfn)                       /* (a) */
		return false;
	buddy = pfn_to_page(buddy_pfn);
	return (READ_ONCE(buddy->flags) & PG_buddy) &&  /* (b) */
	       buddy->order == order &&                 /* (c) */
	       buddy->node == node;                     /* (d) */
}

/*
 * __free_one_page - give a block back to the buddy allocator, joining it
 * with its free neighbours into ever larger blocks.
 *
 * The idea, as the textbooks first drew it: memory is cut into blocks
 * whose sizes are powers of two pages ("orders"). Two neighbouring blocks
 * of one order that together make an aligned block of the next order are
 * each other's buddy. The early designs kept a bitmap per order, one bit
 * per pair of buddies, and a free flipped a bit at the lowest order and
 * climbed for as long as both halves of a pair were free.
 *
 * In tally, as in Linux, there is no bitmap: a free block is represented by
 * its first page, which has PG_buddy set and its order in page->order, and
 * is on the free list of that order. A block of order n starts at a frame
 * number (pfn) that is a multiple of 2^n, and its buddy is the block of the
 * same order next to it with which it forms a block of order n+1: the
 * buddy's pfn differs from ours only in bit n, pfn ^ (1 << n).
 *
 * So, to free a block of order n at pfn: look at the buddy. If the buddy
 * is a free block of order n too (page_is_buddy), take it off its free
 * list, and the two together are a free block of order n+1 that starts at
 * the lower of the two pfns (pfn & buddy_pfn). Repeat with that block,
 * until the buddy is not free or the order reaches MAX_ORDER. Then put the
 * (possibly much larger) block on its free list.
 *
 *   free pfn 5, order 0:  buddy 4 free?  -> block 4, order 1
 *                         buddy 6 free (order 1)?  -> block 4, order 2
 *                         buddy 0 is allocated      -> stop: 4..7 is free
 *
 * Allocation (__rmqueue) is the same run backwards: take the smallest free
 * block of at least the wanted order and split it in halves, putting the
 * upper half of each split back on the free list of its order (expand).
 *
 * This keeps free memory in the largest blocks possible, so that requests
 * for large contiguous blocks (kernel stacks, order 2) can be met, and
 * costs at most MAX_ORDER steps per allocation or free.
 *
 * The caller holds the lock of the page's zone (page_zone: its node's)
 * and has cleared the page's flags.
 */
void __free_one_page(struct page *page, uint64_t pfn, unsigned int order)
{
	struct zone *zone = page_zone(page);

	zone->free_pages += 1ul << order;

	while (order < MAX_ORDER) {
		uint64_t buddy_pfn = __find_buddy_pfn(pfn, order);

		if (!page_is_buddy(buddy_pfn, order, zone->node))
			break;
		del_page_from_free_list(zone, pfn_to_page(buddy_pfn), order);
		pfn &= buddy_pfn;  /* the merged block starts lower */
		order++;
	}
	add_to_free_list(zone, pfn_to_page(pfn), order);
}

/*
 * expand - we took a free block of order high for a request of order low:
 * split it, giving back the upper half each time, until it is of order low.
 *
 *   high 3, low 0:  pages 0..7 -> free 4..7 (order 2), 2..3 (order 1),
 *                   1 (order 0); keep 0.
 */
static inline void expand(struct zone *zone, struct page *page,
			  unsigned int low, unsigned int high)
{
	while (high > low) {
		high--;
		add_to_free_list(zone, page + (1ul << high), high);
	}
}

struct page *__rmqueue(struct zone *zone, unsigned int order)
{
	for (unsigned int current_order = order; current_order <= MAX_ORDER;
	     current_order++) {
		struct free_area *area = &zone->free_area[current_order];
		struct page *page;

		if (list_empty(&area->free_list))
			continue;
		page = list_first_entry(&area->free_list, struct page, lru);
		del_page_from_free_list(zone, page, current_order);
		expand(zone, page, order, current_order);
		zone->free_pages -= 1ul << order;
		return page;
	}
	return NULL;
}

/* --- poisoning (debug) ---------------------------------------------------- */

__noinline void poison_pages(struct page *page,
						 unsigned int order)
{
	memset(page_address(page), PAGE_POISON_FREE, PAGE_SIZE << order);
}

/* check_poison - panic if a free block was written to while it was free. */
void check_poison(struct page *page, unsigned int order)
{
	const uint64_t pattern = 0x0101010101010101ull * PAGE_POISON_FREE;
	const uint64_t *words = page_address(page);
	const unsigned char *mem = page_address(page);

	for (size_t w = 0; w < (PAGE_SIZE << order) / 8; w++) {
		if (words[w] == pattern)
			continue;
		for (size_t i = w * 8; ; i++)  /* find the changed byte */
			if (mem[i] != PAGE_POISON_FREE)
				panic("alloc_pages: pfn 0x%lx: use after free: "
				      "byte %lu of the page was changed to "
				      "0x%02x",
				      (unsigned long)(page_to_pfn(page) +
						      i / PAGE_SIZE),
				      (unsigned long)(i % PAGE_SIZE), mem[i]);
	}
}

/* --- boot ----------------------------------------------------------------- */

void __free_pages_core(struct page *page, unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long flags;

	for (unsigned long i = 0; i < (1ul << order); i++)
		page[i].flags = 0;  /* was PG_reserved */
	if (page_poisoning)
		poison_pages(page, order);
	totalram_pages += 1ul << order;

	flags = spin_lock_irqsave(&zone->lock);
	zone->present_pages += 1ul << order;
	__free_one_page(page, page_to_pfn(page), order);
	spin_unlock_irqrestore(&zone->lock, flags);
}



/*
 * rmqueue, rmqueue_buddy - take a block: order 0 from this CPU's list,
 * larger ones from the free lists under the zone lock - this CPU's node's
 * zone first, then the other nodes' (numa_fallback_node), as Linux walks
 * its zonelist.
 */
__noinline struct page *
rmqueue_buddy(unsigned int order)
{
	unsigned int local = numa_node_id();

	for (unsigned int i = 0; i < nr_node_ids; i++) {
		struct zone *zone = &node_zones[numa_fallback_node(local, i)];
		unsigned long flags = spin_lock_irqsave(&zone->lock);
		struct page *page = __rmqueue(zone, order);

		spin_unlock_irqrestore(&zone->lock, flags);
		if (page)
			return page;
	}
	return NULL;
}

/* free_to_buddy - a block of order > 0 back to the free lists of its own
 * node, under the zone lock. */
__noinline void free_to_buddy(struct page *page,
						   unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long flags = spin_lock_irqsave(&zone->lock);

	__free_one_page(page, page_to_pfn(page), order);
	spin_unlock_irqrestore(&zone->lock, flags);
}

unsigned long nr_free_pages(void)
{
	unsigned long free = pcp_nr_pages();

	for (unsigned int nid = 0; nid < nr_node_ids; nid++)
		free += READ_ONCE(node_zones[nid].free_pages);
	return free;
}
