/* SPDX-License-Identifier: MIT */
/*
 * mm/page_alloc_internal.h - what the files of the page allocator share
 * (mm/buddy.c, mm/page_alloc.c, mm/free_check.c):
 * the hot inlines of an allocation and a free, and the out-of-line calls
 * they make. Not for the rest of the kernel: mm/buddy.h is the interface.
 */
#ifndef MM_PAGE_ALLOC_INTERNAL_H
#define MM_PAGE_ALLOC_INTERNAL_H

#include <string.h>

#include "mm/kmem_trace.h"
#include "mm/buddy.h"
#include "mm/debug_free.h"
#include "mm/fail_page.h"
#include "mm/memcg_hooks.h"
#include "mm/pcp.h"
#include "mm/watermark.h"

/* mm/buddy.c */
struct page *rmqueue_buddy(unsigned int order);
void free_to_buddy(struct page *page, unsigned int order);
void poison_pages(struct page *page, unsigned int order);
void check_poison(struct page *page, unsigned int order);
/* mm/page_alloc.c */
struct page *fill_new_page_slow(struct page *page, unsigned int order,
				gfp_t gfp);
struct page *alloc_pages_slowpath(gfp_t gfp, unsigned int order);
/* alloc_pages_uncharged - an allocation nobody pays for. */
__noinline struct page *
alloc_pages_uncharged(gfp_t gfp, unsigned int order);
/* mm/free_check.c */
_Noreturn void bad_free(const char *who, struct page *page,
			unsigned int order);

/* rmqueue - take a block: order 0 from this CPU's list, larger ones from
 * the free lists (rmqueue_buddy, out of line). */
static inline struct page *rmqueue(unsigned int order)
{
	if (order == 0)
		return pcp_alloc_page();
	return rmqueue_buddy(order);
}

/* prep_new_page - mark a block allocated: its first page's PG_head and
 * order. */
static inline void prep_new_page(struct page *page, unsigned int order)
{
	page->flags = PG_head;
	page->order = order;
}

/* fill_new_page - fill a new block's memory as gfp asks (zeroes), or,
 * with poisoning on, check that nothing wrote to it while it was free and
 * fill it with the allocation pattern; both out of line
 * (fill_new_page_slow). Returns page, so that a caller may end with it. */
static inline struct page *fill_new_page(struct page *page,
					 unsigned int order, gfp_t gfp)
{
	if (unlikely(page_poisoning || (gfp & __GFP_ZERO)))
		return fill_new_page_slow(page, order, gfp);
	return page;
}

/*
 * __alloc_pages - the allocator itself, accounting aside: take the pages
 * - none if fault injection fails this allocation (mm/fail_page.c) or
 * only the system tasks' reserve is left (mm/watermark.c) - and prepare
 * them.
 */
static __always_inline struct page *
__alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = NULL;

	if (likely(!should_fail_alloc_page(gfp, order) &&
		   zone_watermark_ok(gfp, order))) {
		page = rmqueue(order);
		if (unlikely(!page))
			page = alloc_pages_slowpath(gfp, order);
	}
	if (unlikely(!page))
		return NULL;
	prep_new_page(page, order);
	return fill_new_page(page, order, gfp);
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

/* free_page_flags_bad - once the descriptor is known good: is the block
 * not one to free? True unless, of PAGE_FLAGS_CHECK, exactly the flags
 * want are set (PG_head; PG_head | PG_kmemcg for a charged block), and
 * the block has this order. */
static inline bool free_page_flags_bad(const struct page *page,
				       unsigned int order, uint32_t want)
{
	return unlikely((page->flags & PAGE_FLAGS_CHECK) != want ||
			page->order != order);
}

/* free_page_flags_check - panic unless the block is an uncharged one to
 * free, then the debug checks if they are on
 * (/proc/sys/debug_check_on_free). */
static inline void free_page_flags_check(const char *who, struct page *page,
					 unsigned int order)
{
	if (free_page_flags_bad(page, order, PG_head))
		bad_free(who, page, order);
	if (debug_check_on_free())
		debug_check_free_block(who, page, order);
}

/* free_charged_check - panic unless the block is a charged one to free,
 * with a domain to give the charge back to; then the debug checks. */
static inline void free_charged_check(struct page *page, unsigned int order)
{
	if (free_page_flags_bad(page, order, PG_head | PG_kmemcg) ||
	    unlikely(!page->memcg))
		bad_free("free_accounted_pages", page, order);
	if (debug_check_on_free())
		debug_check_free_block("free_accounted_pages", page, order);
}

/*
 * __free_pages - free a checked block: its first page back to a free
 * page's state (no flags, no order, no domain: where a charged block
 * loses PG_kmemcg and page->memcg), its memory filled with the free
 * pattern if page poisoning is on (poison_pages, out of line), then the
 * block to this CPU's list if order 0, else to the free lists
 * (free_to_buddy, out of line).
 */
static inline void __free_pages(struct page *page, unsigned int order)
{
	page->flags = 0;
	page->order = 0;
	page->memcg = NULL;
	if (unlikely(page_poisoning))
		poison_pages(page, order);
	if (order == 0)
		pcp_free_page(page);
	else
		free_to_buddy(page, order);
}

#endif
