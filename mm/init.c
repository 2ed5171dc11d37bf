// SPDX-License-Identifier: MIT
/*
 * mm/init.c - handing physical memory to the page allocator at boot.
 *
 * The firmware's memory map says which physical ranges are RAM; the boot
 * code adds the ranges inside RAM that are already in use (the first MiB,
 * the kernel image, multiboot data). mm_init then
 *
 *   1. sizes mem_map[] (one struct page per frame, 0 .. max_pfn) and carves
 *      it out of the first free stretch of RAM large enough;
 *   2. marks every frame PG_reserved;
 *   3. frees every usable frame - RAM, not reserved, not mem_map itself -
 *      into the buddy allocator, as the largest aligned blocks possible,
 *      each into the zone of its NUMA node (mm/numa.h; node 0 without an
 *      SRAT), no block crossing from one node to the next;
 *   4. sets up the per-CPU lists and the slab caches, so that
 *      alloc_pages() and kmalloc() work when it returns.
 *
 * Frames that are never freed here (holes, ACPI tables, MMIO, the kernel)
 * stay PG_reserved forever, and free_pages() refuses them.
 */
#include "mm/init.h"

#include "mm/buddy.h"
#include "mm/memcg_hooks.h"
#include "mm/numa.h"
#include "mm/page.h"
#include "mm/pcp.h"
#include "mm/slab.h"

struct page *mem_map;
uint64_t max_pfn;

/* A range of frames [start, end). */
struct pfn_range {
	uint64_t start, end;
};

#define MM_MAX_RANGES 64

static struct pfn_range ram_pfns[MM_MAX_RANGES];
static int nr_ram_pfns;
static struct pfn_range reserved_pfns[MM_MAX_RANGES + 1]; /* + mem_map */
static int nr_reserved_pfns;

static uint64_t pfn_up(uint64_t addr)
{
	return (addr + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

static uint64_t pfn_down(uint64_t addr)
{
	return addr >> PAGE_SHIFT;
}

/*
 * collect_ram - RAM as whole frames (partial frames at the edges are not
 * usable), sorted, with overlapping or touching ranges merged: firmware
 * maps are not always tidy, and a frame freed twice would corrupt the
 * allocator.
 */
static void collect_ram(const struct phys_range *ram, int nr_ram)
{
	nr_ram_pfns = 0;
	for (int i = 0; i < nr_ram; i++) {
		struct pfn_range r = {pfn_up(ram[i].start),
				      pfn_down(ram[i].end)};
		int j;

		if (ram[i].end <= ram[i].start || r.start >= r.end)
			continue;
		if (nr_ram_pfns == MM_MAX_RANGES)
			panic("mm_init: more than %d RAM ranges",
			      MM_MAX_RANGES);
		/* insertion sort by start */
		for (j = nr_ram_pfns; j > 0 && ram_pfns[j - 1].start > r.start;
		     j--)
			ram_pfns[j] = ram_pfns[j - 1];
		ram_pfns[j] = r;
		nr_ram_pfns++;
	}
	/* merge neighbours that overlap or touch */
	int out = 0;
	for (int i = 0; i < nr_ram_pfns; i++) {
		if (out > 0 && ram_pfns[i].start <= ram_pfns[out - 1].end) {
			if (ram_pfns[i].end > ram_pfns[out - 1].end)
				ram_pfns[out - 1].end = ram_pfns[i].end;
		} else {
			ram_pfns[out++] = ram_pfns[i];
		}
	}
	nr_ram_pfns = out;
}

/* collect_reserved - reserved ranges, widened to whole frames. */
static void collect_reserved(const struct phys_range *reserved, int nr)
{
	if (nr > MM_MAX_RANGES)
		panic("mm_init: more than %d reserved ranges", MM_MAX_RANGES);
	nr_reserved_pfns = 0;
	for (int i = 0; i < nr; i++) {
		struct pfn_range *r = &reserved_pfns[nr_reserved_pfns];

		if (reserved[i].end <= reserved[i].start)
			continue;
		nr_reserved_pfns++;
		r->start = pfn_down(reserved[i].start);
		r->end = pfn_up(reserved[i].end);
	}
}

/*
 * usable_run - the first stretch of usable frames at or after pfn, below
 * end: returns its first frame and sets *run_end, or returns end if there
 * is none. Usable means not inside any reserved range.
 */
static uint64_t usable_run(uint64_t pfn, uint64_t end, uint64_t *run_end)
{
	bool moved = true;

	/* Step over reserved ranges until pfn is in none of them. */
	while (moved && pfn < end) {
		moved = false;
		for (int i = 0; i < nr_reserved_pfns; i++) {
			if (reserved_pfns[i].start <= pfn &&
			    pfn < reserved_pfns[i].end) {
				pfn = reserved_pfns[i].end;
				moved = true;
			}
		}
	}
	if (pfn >= end)
		return end;
	/* The run ends at the next reserved range, or at end. */
	*run_end = end;
	for (int i = 0; i < nr_reserved_pfns; i++) {
		if (reserved_pfns[i].start > pfn &&
		    reserved_pfns[i].start < *run_end)
			*run_end = reserved_pfns[i].start;
	}
	return pfn;
}

/* place_mem_map - the first usable stretch of RAM with room for nr frames. */
static uint64_t place_mem_map(uint64_t nr)
{
	for (int i = 0; i < nr_ram_pfns; i++) {
		uint64_t pfn = ram_pfns[i].start, run_end;

		while ((pfn = usable_run(pfn, ram_pfns[i].end, &run_end)) <
		       ram_pfns[i].end) {
			if (run_end - pfn >= nr)
				return pfn;
			pfn = run_end;
		}
	}
	panic("mm_init: no free stretch of RAM can hold mem_map (%lu KiB)",
	      (unsigned long)(nr * PAGE_SIZE / 1024));
}

/* free_run - give frames [start, end) to the buddy allocator, in the
 * largest naturally aligned blocks that fit and stay within one node. */
static void free_run(uint64_t start, uint64_t end)
{
	while (start < end) {
		uint64_t node_end = numa_node_run_end(start, end);
		unsigned int order = MAX_ORDER;

		while (order > 0 && ((start & ((1ul << order) - 1)) != 0 ||
				     start + (1ul << order) > node_end))
			order--;
		__free_pages_core(pfn_to_page(start), order);
		start += 1ul << order;
	}
}

void mm_init(const struct phys_range *ram, int nr_ram,
	     const struct phys_range *reserved, int nr_reserved)
{
	uint64_t map_frames, map_pfn;

	collect_ram(ram, nr_ram);
	collect_reserved(reserved, nr_reserved);
	if (nr_ram_pfns == 0)
		panic("mm_init: the memory map has no usable RAM");

	/* 1. mem_map[]: one descriptor per frame below the end of RAM. */
	max_pfn = ram_pfns[nr_ram_pfns - 1].end;
	map_frames = pfn_up(max_pfn * sizeof(struct page));
	map_pfn = place_mem_map(map_frames);
	reserved_pfns[nr_reserved_pfns].start = map_pfn;
	reserved_pfns[nr_reserved_pfns].end = map_pfn + map_frames;
	nr_reserved_pfns++;
	mem_map = phys_to_virt(map_pfn << PAGE_SHIFT);

	/* 2. Every frame starts reserved. */
	for (uint64_t pfn = 0; pfn < max_pfn; pfn++) {
		struct page *page = &mem_map[pfn];

		page->flags = PG_reserved;
		page->order = 0;
		page->node = (uint8_t)numa_pfn_to_nid(pfn);
		page->slab_inuse = 0;
		INIT_LIST_HEAD(&page->lru);
		page->memcg = NULL;
	}

	/* 3. Free the usable frames. */
	zone_init();
	totalram_pages = 0;
	for (int i = 0; i < nr_ram_pfns; i++) {
		uint64_t pfn = ram_pfns[i].start, run_end;

		while ((pfn = usable_run(pfn, ram_pfns[i].end, &run_end)) <
		       ram_pfns[i].end) {
			free_run(pfn, run_end);
			pfn = run_end;
		}
	}
	if (totalram_pages == 0)
		panic("mm_init: every frame of RAM is reserved");

	/* 4. The layers above the buddy allocator. */
	pcp_init();
	cgroup_mode_setup();      /* v2 changes the default slab design */
	slab_accounting_setup();  /* the design decides the slab layout */
	kmem_cache_init();

	/* Nothing is printed: the banner must be the first line
	 * (docs/interface.md). */
}
