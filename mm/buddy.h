/* SPDX-License-Identifier: MIT */
/*
 * mm/buddy.h - the page allocator: blocks of 2^order physically contiguous
 * 4 KiB frames, order 0 (4 KiB) to MAX_ORDER (4 MiB).
 *
 * The public interface is alloc_pages()/free_pages() and friends. The zone
 * and the double-underscore functions are the allocator's insides, shared
 * only with the other files of mm/ (per-CPU lists, boot, /proc).
 */
#ifndef MM_BUDDY_H
#define MM_BUDDY_H

#include "kernel/base/list.h"
#include "kernel/base/spinlock.h"
#include "mm/gfp.h"
#include "mm/numa.h"
#include "mm/page.h"

/* --- the public interface ------------------------------------------------ */

/*
 * alloc_pages - allocate 2^order contiguous frames.
 * @gfp:   __GFP_ZERO zeroes them; __GFP_KMEMCG charges them to the current
 *         task's domain (they must then be freed with free_accounted_pages);
 *         __GFP_NOFAIL never returns NULL (panics if memory is truly gone);
 *         __GFP_NOWARN does not log a failure; __GFP_ATOMIC must be given by
 *         callers in interrupt context or holding a spinlock.
 * @order: 0..MAX_ORDER
 *
 * Returns the first page of the block (its PG_head set and ->order
 * recorded), or NULL if there is no free block that large or the domain's
 * kmem limit refused the charge. Any context; never sleeps.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);

/* alloc_page - alloc_pages(gfp, 0). */
static inline struct page *alloc_page(gfp_t gfp)
{
	return alloc_pages(gfp, 0);
}

/*
 * free_pages - give back a block that alloc_pages() returned.
 * @page:  the block's first page (NULL: nothing is done)
 * @order: the order it was allocated with
 *
 * Panics, naming the frame, on a double free, a wrong order, a frame that
 * is reserved, outside mem_map, not the first page of a block, owned by a
 * slab, or charged to a domain (PG_kmemcg: use free_accounted_pages).
 */
void free_pages(struct page *page, unsigned int order);

/*
 * free_accounted_pages - give back a block that may have been allocated
 * with __GFP_KMEMCG: uncharges its domain (memcg_kmem_uncharge_page), then
 * frees it as free_pages() does. Correct for uncharged blocks too.
 */
void free_accounted_pages(struct page *page, unsigned int order);

/* nr_free_pages - free frames: the buddy free lists plus all per-CPU lists. */
unsigned long nr_free_pages(void);

/* totalram_pages - frames handed to the allocator at boot (MemTotal). */
extern unsigned long totalram_pages;

/*
 * page_poisoning - debug option, off by default (set it before mm_init).
 * When on, freed frames are filled with PAGE_POISON_FREE and checked on
 * allocation (a changed byte is a use after free: panic), and allocated
 * frames not asked for with __GFP_ZERO are filled with PAGE_POISON_ALLOC,
 * as xv6's kalloc does with 1s and 5s.
 */
extern bool page_poisoning;
#define PAGE_POISON_FREE  0x01
#define PAGE_POISON_ALLOC 0x05

/* get_order - the smallest order whose block holds size bytes, or
 * MAX_ORDER + 1 if no block is that large. */
static inline unsigned int get_order(size_t size)
{
	unsigned int order = 0;

	while (order <= MAX_ORDER && (PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* --- inside mm/: the zone ------------------------------------------------- */

/* The free blocks of one order: a list of their first pages. */
struct free_area {
	struct list_head free_list;
	unsigned long nr_free;  /* blocks on free_list */
};

/*
 * A zone is a range of memory with its own free lists. tally has one zone,
 * "Normal", per NUMA node (mm/numa.h): all of the node's RAM (Linux also
 * has DMA zones for old devices). Without an SRAT there is one node, and
 * node_zones[0] is all of RAM. Everything in a zone is protected by its
 * lock, taken with interrupts off (spin_lock_irqsave): allocations happen
 * in interrupt context too.
 *
 * A block never spans two nodes: mm_init hands each node's frames to its
 * zone separately, and two buddies merge only if they are of the same
 * node (page_is_buddy (d)). A free block is always on the free lists of
 * its own node, page->node.
 */
struct zone {
	spinlock_t lock;
	struct free_area free_area[MAX_ORDER + 1];
	unsigned long free_pages;    /* frames in blocks on the free lists */
	unsigned long present_pages; /* frames handed to the zone at boot */
	unsigned int node;
	const char *name;
};

/* One zone per node (Linux: NODE_DATA(nid)->node_zones[ZONE_NORMAL]). */
extern struct zone node_zones[MAX_NUMNODES];

/* Node 0's zone: all of RAM on a machine without an SRAT. */
#define zone_normal (node_zones[0])

/* page_zone - the zone a frame belongs to: its node's. */
static inline struct zone *page_zone(const struct page *page)
{
	return &node_zones[page->node];
}

/* zone_init - empty free lists (mm_init calls it before freeing RAM). */
void zone_init(void);

/* __free_pages_core - at boot: hand a block of PG_reserved frames to the
 * allocator for the first time (counted in totalram_pages). The block must
 * lie within one node. */
void __free_pages_core(struct page *page, unsigned int order);

/* __rmqueue - take a block of this order off zone's free lists, splitting
 * a larger one if needed; NULL if none. zone->lock held. */
struct page *__rmqueue(struct zone *zone, unsigned int order);

/* __free_one_page - put a block on its node's free lists (page_zone),
 * merging it with its buddies. Its page flags must be 0. That zone's lock
 * held. */
void __free_one_page(struct page *page, uint64_t pfn, unsigned int order);

#endif
