// SPDX-License-Identifier: MIT
/*
 * mm/free_check.c - why a free is wrong: the panic that names the frame
 * when a check of mm/page_alloc_internal.h fails.
 */
#include "mm/page_alloc_internal.h"

/* --- freeing -------------------------------------------------------------- */

/*
 * bad_free - explain, by a panic naming the frame, why (page, order) is not
 * a block that can be freed. Called only when a check of the free failed.
 */
_Noreturn void bad_free(const char *who, struct page *page,
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
	if ((page->flags & PG_kmemcg) && !page->memcg)
		panic("%s: pfn 0x%lx: page has PG_kmemcg but no domain", who,
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
