/* SPDX-License-Identifier: MIT */
/*
 * mm/page.h - the page descriptor: one struct page per 4 KiB frame of RAM.
 *
 * The array mem_map[] has one entry per physical frame, from frame 0 to the
 * highest frame of RAM, so pfn_to_page() is an index. Each descriptor is at
 * most 32 bytes (checked below): 0.8% of memory.
 *
 * The owning domain of an accounted page is kept here, in page->memcg. Linux
 * 2012 kept it in a separate page_cgroup array; keeping it in struct page is
 * what later Linux did (page->memcg_data).
 */
#ifndef MM_PAGE_H
#define MM_PAGE_H

#include "kernel/base/list.h"
#include "kernel/base/platform.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ul << PAGE_SHIFT)
#define MAX_ORDER 10  /* orders 0..MAX_ORDER: 4 KiB .. 4 MiB */

/* page->flags */
/* never handed out: firmware, kernel image, holes */
#define PG_reserved   (1u << 0)
#define PG_buddy      (1u << 1)  /* head of a free block on a buddy free list */
#define PG_pcp        (1u << 2)  /* free, on a per-CPU list */
#define PG_slab       (1u << 3)  /* belongs to a slab */
/* first page of an allocated block (its order in ->order) */
#define PG_head       (1u << 4)
#define PG_kmemcg     (1u << 5)  /* charged to page->memcg */
#define PG_user       (1u << 6)  /* user memory of some domain (hog/cache) */
#define PG_slab_cpu   (1u << 7)  /* slab: a CPU's slab (mm/slab_alloc.c) */

struct mem_cgroup;

struct page {
	uint32_t flags;
	uint8_t order;         /* free block or allocated block: its order */
	uint8_t node;          /* NUMA node of the frame */
	uint16_t slab_inuse;   /* slab: objects in use on this page */
	struct list_head lru;  /* free list, per-CPU list, or slab list */
	struct mem_cgroup *memcg; /* charged page: the domain that pays */
};

_Static_assert(sizeof(struct page) <= 32,
	       "struct page must be at most 32 bytes");

extern struct page *mem_map;
extern uint64_t max_pfn;  /* one past the highest frame of RAM */

static inline uint64_t page_to_pfn(const struct page *page)
{
	return (uint64_t)(page - mem_map);
}

static inline struct page *pfn_to_page(uint64_t pfn)
{
	return &mem_map[pfn];
}

static inline uint64_t page_to_phys(const struct page *page)
{
	return page_to_pfn(page) << PAGE_SHIFT;
}

/* page_address - the direct-map address of the page's memory. */
static inline void *page_address(const struct page *page)
{
	return phys_to_virt(page_to_phys(page));
}

static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(virt_to_phys(addr) >> PAGE_SHIFT);
}

#endif
