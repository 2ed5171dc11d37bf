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
 * alloc_pages() is also where kernel-memory accounting starts, and
 * free_accounted_pages() where it ends: the call tree from here to the
 * counters is drawn once, in mm/memcg/memcg_charge.c.
 */
#include "mm/buddy.h"

#include <string.h>

#include "kernel/trace/trace_events.h"
#include "mm/debug_free.h"
#include "mm/fail_page.h"
#include "mm/memcg/kmem_hooks.h"
#include "mm/pcp.h"
#include "mm/watermark.h"

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
	list_del(&page->lru);
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

static __attribute__((noinline)) void poison_pages(struct page *page,
						 unsigned int order)
{
	memset(page_address(page), PAGE_POISON_FREE, PAGE_SIZE << order);
}

/* check_poison - panic if a free block was written to while it was free. */
static void check_poison(struct page *page, unsigned int order)
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

/* --- allocation ----------------------------------------------------------- */

/*
 * rmqueue, rmqueue_buddy - take a block: order 0 from this CPU's list,
 * larger ones from the free lists under the zone lock - this CPU's node's
 * zone first, then the other nodes' (numa_fallback_node), as Linux walks
 * its zonelist.
 */
static __attribute__((noinline)) struct page *
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

/* rmqueue's test of the order is inline: the order-0 case goes straight
 * to the per-CPU list, without the larger blocks' stack frame (it cost
 * every page 18 instructions of saving and restoring registers). */
static inline struct page *rmqueue(unsigned int order)
{
	if (order == 0)
		return pcp_alloc_page();
	return rmqueue_buddy(order);
}

/* fill_new_poisoned - with poisoning on: check that the free block was
 * not written to, then fill it with zeroes or the allocation pattern. */
static __attribute__((noinline, cold)) void
fill_new_poisoned(struct page *page, unsigned int order, gfp_t gfp)
{
	check_poison(page, order);
	memset(page_address(page),
	       (gfp & __GFP_ZERO) ? 0 : PAGE_POISON_ALLOC, PAGE_SIZE << order);
}

/* prep_new_page - mark a block allocated, and fill it as gfp asks. (The
 * poisoning case is out of line: it keeps gfp live across a call, which
 * costs the common case a saved register.) */
static inline void prep_new_page(struct page *page, unsigned int order,
				 gfp_t gfp)
{
	page->flags = PG_head;
	page->order = order;
	if (unlikely(page_poisoning))
		fill_new_poisoned(page, order, gfp);
	else if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
}

/* Failures are logged, the first few of them: an out-of-memory storm (a
 * fork bomb in the root domain) must not flood the console. */
#define ALLOC_FAILURES_LOGGED 5
static unsigned long alloc_failures;

/*
 * alloc_pages_slowpath - no block was free. Pages may be sitting on other
 * CPUs' per-CPU lists: drain them and try again. __GFP_NOFAIL callers keep
 * trying (other CPUs may be freeing memory), and a panic ends it if memory
 * is truly gone.
 */
static struct page *alloc_pages_slowpath(gfp_t gfp, unsigned int order)
{
	/* Draining other CPUs waits for them: not from an interrupt handler
	 * or with a lock held (a CPU spinning on it with interrupts off
	 * would never answer). Those callers drain only their own list. */
	bool may_wait = !(gfp & __GFP_ATOMIC) && !in_interrupt();
	int attempts = (gfp & __GFP_NOFAIL) ? 1000 : 1;
	struct page *page;

	for (int i = 0; i < attempts; i++) {
		if (may_wait)
			drain_all_pages();
		else
			drain_local_pages();
		page = rmqueue(order);
		if (page)
			return page;
		for (int spin = 0; spin < 1000; spin++)
			cpu_relax();
	}
	if (gfp & __GFP_NOFAIL)
		panic("alloc_pages: out of memory: __GFP_NOFAIL order-%u "
		      "allocation cannot be met (%lu pages free)",
		      order, nr_free_pages());
	if (!(gfp & __GFP_NOWARN) &&
	    __atomic_fetch_add(&alloc_failures, 1, __ATOMIC_RELAXED) <
		    ALLOC_FAILURES_LOGGED)
		printk("alloc_pages: order-%u allocation failed (gfp 0x%x, "
		       "%lu pages free)\n", order, gfp, nr_free_pages());
	return NULL;
}

/*
 * __alloc_pages - the allocator itself, accounting aside: take the pages
 * - none if fault injection fails this allocation (mm/fail_page.c) or
 * only the system tasks' reserve is left (mm/watermark.c) - and prepare
 * them.
 */
static __attribute__((always_inline)) inline struct page *
__alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = NULL;

	if (likely(!should_fail_alloc_page(gfp, order) &&
		   zone_watermark_ok(gfp, order))) {
		page = rmqueue(order);
		if (unlikely(!page))
			page = alloc_pages_slowpath(gfp, order);
	}
	if (likely(page))
		prep_new_page(page, order, gfp);
	return page;
}

/* alloc_pages_raw - an allocation that nobody pays for. */
static __attribute__((noinline)) struct page *
alloc_pages_raw(gfp_t gfp, unsigned int order)
{
	struct page *page = __alloc_pages(gfp, order);

	/* mm_page_alloc; and memcg_kmem_domain (pays=nobody) for the
	 * root's accounted allocations: one site for both. */
	trace_mm_page_alloc_unaccounted(page, order, gfp);
	return page;
}

/*
 * __alloc_pages_accounted - an allocation to be charged to a domain other
 * than the root: charge, allocate, record the owner (or give the charge
 * back if no page came). memcg: the domain alloc_pages read
 * (memcg_kmem_task_domain).
 *
 * Compiled in twins: plain, with no tracepoint site on the way, and
 * traced (traced true), with the events' sites; alloc_pages picks one at
 * the site of the kmem static key, which it passes anyway
 * (memcg_kmem_path), so that tracepoints compiled in cost the plain path
 * nothing.
 */
static __attribute__((always_inline)) inline struct page *
__alloc_pages_accounted(gfp_t gfp, unsigned int order, struct task *task,
			struct mem_cgroup *memcg, bool traced)
{
	enum memcg_kmem_charge how;
	struct mem_cgroup *handle;
	unsigned long flags;
	struct page *page;

	how = __memcg_kmem_new_page(gfp, &handle, order, task, memcg, &flags,
				    traced);
	if (likely(how >= MEMCG_KMEM_FROM_STOCK)) {
		/* The common cases: this CPU's stock held the charge, or
		 * the counters took it exactly, and interrupts are still
		 * off. One page comes from this CPU's list in the same
		 * section: the stock and the list are the same kind of
		 * thing, a per-CPU cache in front of something shared, and
		 * one section costs half of two. (Unless fault injection is
		 * on - it fails a page after its charge, which is
		 * __alloc_pages' to show - or memory is near the reserve.)
		 * Anything else is __alloc_pages' as usual. */
		bool stock = how == MEMCG_KMEM_FROM_STOCK;

		page = NULL;
		if (order == 0 && likely(!fail_page_on() &&
					 zone_watermark_ok(gfp, 0)))
			page = __pcp_alloc_page();
		local_irq_restore(flags);
		if (likely(page))
			prep_new_page(page, 0, gfp);
		else
			page = __alloc_pages(gfp, order);
		if (unlikely(!page)) {
			if (traced && stock)
				trace_memcg_kmem_stock_alloc(NULL, handle,
							     order, gfp);
			if (traced && !stock) {
				trace_memcg_kmem_commit(NULL, handle, order);
				trace_mm_page_alloc(NULL, order, gfp);
			}
			__memcg_kmem_cancel_page(handle, order);
			return NULL;
		}
		__memcg_kmem_commit_page(page, handle, order);
		/* A stock hit's four events share the one site below, passed
		 * on the way out (kernel/trace/trace_events.h); the
		 * counters' charge recorded its own, and the commit and the
		 * page share another. */
		if (traced && stock)
			trace_memcg_kmem_stock_alloc(page, handle, order, gfp);
		if (traced && !stock)
			trace_memcg_kmem_charged_alloc(page, handle, order,
						       gfp);
		return page;
	}
	if (how == MEMCG_KMEM_REFUSED)
		return NULL;  /* the domain is at its limit */
	/* Charged to the counters, or to nobody (handle NULL). */
	page = __alloc_pages(gfp, order);
	if (unlikely(!page)) {
		if (handle) {  /* the charge is given back */
			if (traced)
				trace_memcg_kmem_commit(NULL, handle, order);
			__memcg_kmem_cancel_page(handle, order);
		}
		if (traced)
			trace_mm_page_alloc(NULL, order, gfp);
		return NULL;
	}
	if (handle)
		__memcg_kmem_commit_page(page, handle, order);
	if (traced)
		trace_memcg_kmem_charged_alloc(page, handle, order, gfp);
	return page;
}

/* alloc_pages_accounted, alloc_page_accounted, alloc_pages_accounted_traced
 * - the instances of __alloc_pages_accounted: plain for any order, and
 * for one page - the common case (slab pages, page tables), where the
 * compiler, knowing the order, drops the arithmetic on it - and traced. */
static __attribute__((noinline)) struct page *
alloc_pages_accounted(gfp_t gfp, unsigned int order, struct task *task,
		      struct mem_cgroup *memcg)
{
	return __alloc_pages_accounted(gfp, order, task, memcg, false);
}

static __attribute__((noinline)) struct page *
alloc_page_accounted(gfp_t gfp, struct task *task, struct mem_cgroup *memcg)
{
	return __alloc_pages_accounted(gfp, 0, task, memcg, false);
}

static __attribute__((noinline)) struct page *
alloc_pages_accounted_traced(gfp_t gfp, unsigned int order, struct task *task,
			     struct mem_cgroup *memcg)
{
	return __alloc_pages_accounted(gfp, order, task, memcg, true);
}

/*
 * memcg_kmem_path - which path an allocation takes: one 5-byte site for
 * two keys (static_branch_choose). The NOP while no kmem limit is set
 * anywhere (SPEC 1) and no event is on: nothing is charged. A jump to the
 * plain accounted path once the kmem key is on; to the traced twin while
 * any event is on (tracepoints_on_key wins, kmem key or not: with the kmem
 * key off the traced twin finds nobody to charge, and says why).
 */
enum memcg_kmem_path { KMEM_PATH_NONE, KMEM_PATH_PLAIN, KMEM_PATH_TRACED };

static __attribute__((always_inline)) inline enum memcg_kmem_path
memcg_kmem_path(void)
{
#if defined(CONFIG_MEMCG_KMEM) && defined(CONFIG_TRACEPOINTS) && \
	defined(TALLY_KERNEL)
	return (enum memcg_kmem_path)static_branch_choose(
		&memcg_kmem_enabled_key, &tracepoints_on_key);
#else
	return memcg_kmem_enabled() ? KMEM_PATH_PLAIN : KMEM_PATH_NONE;
#endif
}

/* alloc_pages_charged - the allocation of a task whose domain may pay:
 * the root's is sent on first, unaccounted; then the twin. */
static __attribute__((always_inline)) inline struct page *
alloc_pages_charged(gfp_t gfp, unsigned int order, bool traced)
{
	struct task *task = current;
	struct mem_cgroup *memcg;

#ifdef TALLY_HOST
	if (!task)  /* host tests often run without a current task */
		return alloc_pages_raw(gfp, order);
#endif
	if (!(gfp & __GFP_KMEMCG))
		return alloc_pages_raw(gfp, order);
	memcg = memcg_kmem_task_domain(task);
	if (memcg == root_mem_cgroup)
		return alloc_pages_raw(gfp, order);
	if (traced)
		return alloc_pages_accounted_traced(gfp, order, task, memcg);
	return order ? alloc_pages_accounted(gfp, order, task, memcg)
		     : alloc_page_accounted(gfp, task, memcg);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	if (unlikely(order > MAX_ORDER))
		return NULL;
	/* A 5-byte NOP until the first kmem limit is set (SPEC 1) or an
	 * event is on; then what is not charged - no __GFP_KMEMCG, or a
	 * task of the root, the common case - is sent on before anything
	 * else. */
	switch (memcg_kmem_path()) {
	case KMEM_PATH_PLAIN:
		return alloc_pages_charged(gfp, order, false);
	case KMEM_PATH_TRACED:
		return alloc_pages_charged(gfp, order, true);
	default:
		return alloc_pages_raw(gfp, order);
	}
}

/* --- freeing -------------------------------------------------------------- */

/*
 * bad_free - explain, by a panic naming the frame, why (page, order) is not
 * a block that can be freed. Called only when a check of the free failed.
 */
static _Noreturn void bad_free(const char *who, struct page *page,
			       unsigned int order)
{
	uintptr_t offset = (uintptr_t)page - (uintptr_t)mem_map;
	uint64_t pfn;

	if ((uintptr_t)page < (uintptr_t)mem_map ||
	    offset / sizeof(struct page) >= max_pfn ||
	    offset % sizeof(struct page) != 0)
		panic("%s: page %p is not a page descriptor: outside mem_map "
		      "(%lu frames at %p)", who, (void *)page,
		      (unsigned long)max_pfn, (void *)mem_map);
	pfn = page_to_pfn(page);
	if (page->flags & PG_reserved)
		panic("%s: pfn 0x%lx: frame is reserved (firmware, kernel "
		      "image or hole), it was never allocated",
		      who, (unsigned long)pfn);
	if (page->flags & (PG_buddy | PG_pcp))
		panic("%s: pfn 0x%lx: double free (page is already free%s)",
		      who, (unsigned long)pfn,
		      (page->flags & PG_pcp) ? ", on a per-CPU list" : "");
	if (page->flags & PG_slab)
		panic("%s: pfn 0x%lx: page belongs to a slab; free the "
		      "objects with kmem_cache_free/kfree", who,
		      (unsigned long)pfn);
	if ((page->flags & PG_kmemcg) &&
	    strcmp(who, "free_accounted_pages") != 0)
		panic("%s: pfn 0x%lx: page is charged to a domain (PG_kmemcg); "
		      "free it with free_accounted_pages", who,
		      (unsigned long)pfn);
	if ((page->flags & PG_head) && page->order != order)
		panic("%s: pfn 0x%lx: wrong order %u (the block was "
		      "allocated with order %u)", who, (unsigned long)pfn,
		      order, page->order);
	if (order > MAX_ORDER)
		panic("%s: pfn 0x%lx: order %u is above MAX_ORDER",
		      who, (unsigned long)pfn, order);

	/* Not the first page of an allocated block: find what holds it. */
	for (unsigned int o = 1; o <= MAX_ORDER; o++) {
		uint64_t head_pfn = pfn & ~((1ul << o) - 1);
		struct page *head = pfn_to_page(head_pfn);

		if ((head->flags & PG_buddy) && head->order >= o)
			panic("%s: pfn 0x%lx: double free (page is already "
			      "free, inside the free order-%u block at pfn "
			      "0x%lx)", who, (unsigned long)pfn, head->order,
			      (unsigned long)head_pfn);
		if ((head->flags & PG_head) && head->order >= o)
			panic("%s: pfn 0x%lx: not the first page of a block "
			      "(it is inside the order-%u block at pfn 0x%lx)",
			      who, (unsigned long)pfn, head->order,
			      (unsigned long)head_pfn);
	}
	panic("%s: pfn 0x%lx: page is not allocated (flags 0x%x)",
	      who, (unsigned long)pfn, page->flags);
}

/*
 * The checks of a free: panic (bad_free) unless page is the first page of
 * an allocated block of this order. Of the flags below, an allocated
 * block's first page has PG_head, and PG_kmemcg if it is charged (only
 * free_accounted_pages may free that). (PG_user, user memory, is not
 * checked: its charge is given back by mm/ before the pages are freed.)
 */
#define PAGE_FLAGS_CHECK (PG_reserved | PG_buddy | PG_pcp | PG_slab | \
			  PG_head | PG_kmemcg)

/* page_is_descriptor - does page point at a page descriptor? The first
 * test of a free, before any field of it is read. */
static inline bool page_is_descriptor(const struct page *page)
{
	uintptr_t offset = (uintptr_t)page - (uintptr_t)mem_map;

	return likely(offset < max_pfn * sizeof(struct page) &&
		      offset % sizeof(struct page) == 0);
}

/* free_page_is_descriptor - panic unless it does. */
static inline void free_page_is_descriptor(const char *who, struct page *page,
					   unsigned int order)
{
	if (!page_is_descriptor(page))
		bad_free(who, page, order);  /* not a page descriptor */
}

/* free_page_flags_bad - the rest, once the descriptor is known good:
 * panic unless, of the flags under mask, exactly PG_head is set (and
 * PG_kmemcg, if mask leaves it out because the caller has tested it
 * already), and the block has this order. free_page_flags_check: that,
 * and the debug checks if they are on. */
static inline void free_page_flags_bad(const char *who, struct page *page,
				       unsigned int order, uint32_t mask)
{
	if (unlikely((page->flags & mask) != PG_head || page->order != order))
		bad_free(who, page, order);
}

static inline void free_page_flags_check(const char *who, struct page *page,
					 unsigned int order, uint32_t mask)
{
	free_page_flags_bad(who, page, order, mask);
	/* More checks, when /proc/sys/debug_check_on_free is 1. */
	if (debug_check_on_free())
		debug_check_free_block(who, page, order);
}

/* free_prepare - reset a block's first page to a free page's state
 * (free_reset: the one place PG_kmemcg and page->memcg are cleared), and
 * poison its memory if asked (free_poison). */
static inline void free_poison(struct page *page, unsigned int order)
{
	if (unlikely(page_poisoning))
		poison_pages(page, order);
}

static inline void free_reset(struct page *page)
{
	page->flags = 0;
	page->order = 0;
	page->memcg = NULL;
}

static inline void free_prepare(struct page *page, unsigned int order)
{
	free_reset(page);
	free_poison(page, order);
}

/* free_to_buddy - a block of order > 0 back to the free lists of its own
 * node, under the zone lock. */
static __attribute__((noinline)) void free_to_buddy(struct page *page,
						   unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long flags = spin_lock_irqsave(&zone->lock);

	__free_one_page(page, page_to_pfn(page), order);
	spin_unlock_irqrestore(&zone->lock, flags);
}

/* __free_pages - free a checked block: to this CPU's list if order 0,
 * else to the free lists (free_to_buddy). Inline, so that an order-0
 * free reaches the list without the zone path's stack frame. */
static inline void __free_pages(struct page *page, unsigned int order)
{
	free_prepare(page, order);
	if (order == 0)
		pcp_free_page(page);
	else
		free_to_buddy(page, order);
}

void free_pages(struct page *page, unsigned int order)
{
	if (!page)
		return;
	free_page_is_descriptor("free_pages", page, order);
	free_page_flags_check("free_pages", page, order, PAGE_FLAGS_CHECK);
	__free_pages(page, order);
}

/*
 * The charged free: a checked block with PG_kmemcg is freed and its charge
 * given back, to this CPU's stock if the stock caches the block's domain
 * and has room (__memcg_kmem_uncharge_page), else to the counters
 * (memcg_kmem_uncharge_page_declined). The block is freed before its charge
 * is given back: for a moment the domain pays for a page it no longer
 * has, never the reverse.
 *
 * Compiled twice, as the allocation is (alloc_pages_accounted): plain,
 * with no tracepoint site on the way at all, and traced
 * (free_charged_pages_traced), with the events' sites. free_accounted_pages
 * picks the twin at a site it passes anyway (charged_free_extra).
 *
 * free_charged_page - one page, the common case: its charge goes to this
 * CPU's stock and the page to this CPU's list in one interrupts-off
 * section (the stock and the list are per-CPU caches alike: one section
 * costs half of two). Written so that only the interrupt flags are kept
 * across the list's rare calls (a batch drained, a page of another
 * node): the poisoning, a call too, comes first, the domain is read in
 * the section, and a charge the stock declined is finished out of line
 * (free_charged_page_declined), the section still open.
 */
static __attribute__((always_inline)) inline void
__free_charged_page_declined(struct page *page, struct mem_cgroup *memcg,
			     enum stock_return ret, unsigned long flags,
			     bool traced)
{
	free_reset(page);
	__pcp_free_page(page);
	local_irq_restore(flags);
	memcg_kmem_uncharge_page_declined(page, memcg, 0, ret, traced);
}

static __attribute__((noinline)) void
free_charged_page_declined(struct page *page, struct mem_cgroup *memcg,
			   enum stock_return ret, unsigned long flags)
{
	__free_charged_page_declined(page, memcg, ret, flags, false);
}

static __attribute__((always_inline)) inline void
free_charged_page(struct page *page, bool traced)
{
	struct mem_cgroup *memcg;
	enum stock_return ret;
	unsigned long flags;

	free_poison(page, 0);
	flags = local_irq_save();
	memcg = memcg_kmem_page_domain(page);
	ret = __memcg_kmem_uncharge_page(memcg, 1);
	if (unlikely(ret != STOCK_RETURNED)) {
		if (traced)
			__free_charged_page_declined(page, memcg, ret, flags,
						     true);
		else
			free_charged_page_declined(page, memcg, ret, flags);
		return;
	}
	free_reset(page);
	__pcp_free_page(page);
	local_irq_restore(flags);
	if (traced)
		trace_memcg_kmem_stock_free(page, memcg, 0);
}

/* free_charged_block - any order: the charge to the stock, or not, in a
 * section of its own, then the block to the buddy allocator
 * (__free_pages: a tail call when the stock took the charge). */
static __attribute__((always_inline)) inline void
free_charged_block(struct page *page, unsigned int order, bool traced)
{
	struct mem_cgroup *memcg;
	enum stock_return ret;
	unsigned long flags;

	flags = local_irq_save();
	memcg = memcg_kmem_page_domain(page);
	ret = __memcg_kmem_uncharge_page(memcg, 1u << order);
	local_irq_restore(flags);
	if (likely(ret == STOCK_RETURNED)) {
		if (traced)
			trace_memcg_kmem_stock_free(page, memcg, (int)order);
		__free_pages(page, order);
		return;
	}
	__free_pages(page, order);
	memcg_kmem_uncharge_page_declined(page, memcg, (int)order, ret, traced);
}

/* free_charged_pages_plain, free_charged_pages_traced - the instances
 * out of line (tail calls), so that free_accounted_pages' common case,
 * an uncharged page, keeps its small stack frame: plain for any order,
 * and traced. (Plain for one page, the common case, is inline in
 * free_accounted_pages, where the compiler drops the arithmetic on the
 * order.) The traced twin also makes the debug checks: what a
 * charged free does while an event is on or
 * /proc/sys/debug_check_on_free is 1. */
static __attribute__((noinline)) void
free_charged_pages_plain(struct page *page, unsigned int order)
{
	free_charged_block(page, order, false);
}

static __attribute__((noinline)) void
free_charged_pages_traced(struct page *page, unsigned int order)
{
	if (debug_check_on_free())
		debug_check_free_block("free_accounted_pages", page, order);
	if (order == 0)
		free_charged_page(page, true);
	else
		free_charged_block(page, order, true);
}

/*
 * charged_free_extra - has a charged free more to do than the plain
 * twin does: free-time checks, or events to record? One 5-byte site for
 * both keys (static_branch_unlikely_any): the site of the debug checks,
 * that every free passes anyway, also sends a charged free to its traced
 * twin, so that the tracepoints compiled in cost the plain free nothing.
 */
static __attribute__((always_inline)) inline bool charged_free_extra(void)
{
#if defined(CONFIG_TRACEPOINTS) && defined(TALLY_KERNEL)
	return static_branch_unlikely_any(&debug_check_on_free_key,
					  &tracepoints_on_key);
#else
	return debug_check_on_free();
#endif
}

void free_accounted_pages(struct page *page, unsigned int order)
{
	if (!page)
		return;
	free_page_is_descriptor("free_accounted_pages", page, order);
	/* PG_kmemcg tested first, and the other flags checked in each
	 * branch: the flags are read once, and not kept for a second
	 * look. A page nobody was charged for (a task of the root's, the
	 * common case while few domains have a kmem limit) falls through;
	 * a charged one pays one jump more. */
	if (unlikely(page->flags & PG_kmemcg)) {
		/* The debug checks are the traced twin's (below). */
		free_page_flags_bad("free_accounted_pages", page, order,
				    PAGE_FLAGS_CHECK & ~PG_kmemcg);
		/* The twin: inline for one page, the common case, in
		 * this function's frame; else a tail call. */
		if (charged_free_extra())
			free_charged_pages_traced(page, order);
		else if (order == 0)
			free_charged_page(page, false);
		else
			free_charged_pages_plain(page, order);
		return;
	}
	free_page_flags_check("free_accounted_pages", page, order,
			      PAGE_FLAGS_CHECK);
	__free_pages(page, order);
}

unsigned long nr_free_pages(void)
{
	unsigned long free = pcp_nr_pages();

	for (unsigned int nid = 0; nid < nr_node_ids; nid++)
		free += READ_ONCE(node_zones[nid].free_pages);
	return free;
}
