// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_buddy.c - host tests of the buddy allocator (mm/buddy.c)
 * and of mm_init (mm/init.c), on the fake physical memory of host_mem.c.
 *
 * The default layout: 16 MiB of RAM at physical 16 MiB, the first 64 KiB
 * of it reserved; frames below 16 MiB are a hole. So max_pfn is 8192,
 * mem_map takes 64 frames just after the reserved ones, and 4016 frames
 * are usable.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/buddy.h"
#include "mm/meminfo.h"
#include "mm/pcp.h"
#include "tests/unit/host_mem.h"

#define MEM_SIZE (16ul << 20)
#define FIRST_PFN (HOST_MEM_BASE >> PAGE_SHIFT)             /* 4096 */
#define MAP_PFN (FIRST_PFN + (HOST_MEM_RESERVED >> PAGE_SHIFT)) /* 4112 */
#define USABLE (4096 - 16 - 64)

static unsigned long pristine[MAX_ORDER + 1];

static void snapshot(unsigned long *counts)
{
	for (int order = 0; order <= MAX_ORDER; order++)
		counts[order] = zone_normal.free_area[order].nr_free;
}

static void assert_pristine(void)
{
	unsigned long now[MAX_ORDER + 1];

	drain_all_pages();
	snapshot(now);
	for (int order = 0; order <= MAX_ORDER; order++)
		assert_int_equal(now[order], pristine[order]);
	assert_int_equal(nr_free_pages(), totalram_pages);
}

static int setup(void **state)
{
	nr_cpus = 1;
	host_set_cpu(0);
	page_poisoning = false;
	host_mem_init(MEM_SIZE);
	snapshot(pristine);
	return 0;
}

/* mm_init: the hole, the reserved range and mem_map are PG_reserved; the
 * rest is free, in maximal blocks. */
static void test_init_layout(void **state)
{
	unsigned long frames = 0;

	assert_int_equal(max_pfn, 8192);
	assert_int_equal(totalram_pages, USABLE);
	assert_int_equal(nr_free_pages(), USABLE);
	assert_ptr_equal(mem_map, phys_to_virt(MAP_PFN << PAGE_SHIFT));
	assert_true(pfn_to_page(0)->flags & PG_reserved);
	assert_true(pfn_to_page(FIRST_PFN - 1)->flags & PG_reserved);
	assert_true(pfn_to_page(FIRST_PFN)->flags & PG_reserved);
	assert_true(pfn_to_page(MAP_PFN + 63)->flags & PG_reserved);
	assert_int_equal(pfn_to_page(MAP_PFN + 64)->flags, PG_buddy);
	assert_int_equal(pfn_to_page(MAP_PFN + 64)->order, 4);

	/* 4176..5119 in blocks of order 4, 5, 7, 8, 9; then three of 10 */
	unsigned long expect[MAX_ORDER + 1] = {0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 3};
	for (int order = 0; order <= MAX_ORDER; order++) {
		assert_int_equal(zone_normal.free_area[order].nr_free,
				 expect[order]);
		frames += zone_normal.free_area[order].nr_free << order;
	}
	assert_int_equal(frames, USABLE);
}

/* mm_init on several unsorted, overlapping, unaligned RAM ranges with a
 * hole and an unaligned reserved range. */
static void test_init_ranges(void **state)
{
	const uint64_t b = HOST_MEM_BASE;
	struct phys_range ram[] = {
		{b + (12ul << 20) + 10, b + (16ul << 20)}, /* loses a frame */
		{b + (4ul << 20), b + (8ul << 20)},
		{b, b + (4ul << 20)},
		{b + (2ul << 20), b + (6ul << 20)},        /* overlaps both */
		{b + 100, b + 50},                         /* empty */
	};
	struct phys_range reserved[] = {
		{b + (1ul << 20) + 100, b + (1ul << 20) + 5000}, /* 2 frames */
		{b + (9ul << 20), b + (10ul << 20)},             /* hole */
	};
	unsigned long frames = 0;
	struct page *page;

	host_mem_setup(MEM_SIZE);
	mm_init(ram, 5, reserved, 2);
	assert_int_equal(max_pfn, 8192);
	/* RAM 2048 + 1023 frames, minus 2 reserved and 64 of mem_map */
	assert_int_equal(totalram_pages, 2048 + 1023 - 2 - 64);
	assert_int_equal(nr_free_pages(), totalram_pages);
	assert_ptr_equal(mem_map, host_mem);          /* first free stretch */
	assert_true(pfn_to_page(FIRST_PFN + 256)->flags & PG_reserved);
	assert_true(pfn_to_page(FIRST_PFN + 257)->flags & PG_reserved);
	assert_false(pfn_to_page(FIRST_PFN + 258)->flags & PG_reserved);
	for (uint64_t pfn = FIRST_PFN + 2048; pfn <= FIRST_PFN + 3072; pfn++)
		assert_true(pfn_to_page(pfn)->flags & PG_reserved);

	/* Every free frame is RAM and not reserved. */
	for (int order = 0; order <= MAX_ORDER; order++) {
		struct free_area *area = &zone_normal.free_area[order];

		list_for_each_entry(page, &area->free_list, lru) {
			uint64_t pfn = page_to_pfn(page) - FIRST_PFN;

			assert_int_equal(page_to_pfn(page) % (1ul << order), 0);
			assert_true(pfn >= 64);
			assert_false(pfn < 258 && pfn + (1ul << order) > 256);
			assert_true(pfn + (1ul << order) <= 2048 ||
				    pfn >= 3073);
			frames += 1ul << order;
		}
	}
	assert_int_equal(frames, totalram_pages);
}

/* Allocation splits the smallest block that fits; freeing merges back. */
static void test_split_merge(void **state)
{
	struct page *a, *b, *c;
	struct free_area *fa = zone_normal.free_area;

	a = alloc_pages(GFP_KERNEL, 1);
	assert_non_null(a);
	assert_int_equal(page_to_pfn(a), 4176);  /* from the order-4 block */
	assert_int_equal(a->flags, PG_head);
	assert_int_equal(a->order, 1);
	assert_int_equal(fa[4].nr_free, 0);
	assert_int_equal(fa[3].nr_free, 1);      /* 4184 */
	assert_int_equal(fa[2].nr_free, 1);      /* 4180 */
	assert_int_equal(fa[1].nr_free, 1);      /* 4178 */

	b = alloc_pages(GFP_KERNEL, 1);
	assert_int_equal(page_to_pfn(b), 4178);
	c = alloc_pages(GFP_KERNEL, 2);
	assert_int_equal(page_to_pfn(c), 4180);
	assert_int_equal(fa[1].nr_free + fa[2].nr_free, 0);

	free_pages(a, 1);  /* buddy 4178 is allocated: no merge */
	assert_int_equal(fa[1].nr_free, 1);
	free_pages(c, 2);  /* buddy 4176 is free, but of order 1: no merge */
	assert_int_equal(fa[2].nr_free, 1);
	free_pages(b, 1);  /* 4178 + 4176 -> 4176 order 2, + 4180 -> order 3,
			      + 4184 -> order 4 */
	assert_int_equal(fa[4].nr_free, 1);
	assert_int_equal(pfn_to_page(4176)->order, 4);
	assert_pristine();
}

/* Blocks of every order are naturally aligned and inside RAM. */
static void test_alignment(void **state)
{
	struct page *pages[MAX_ORDER + 1];

	for (unsigned int order = 0; order <= MAX_ORDER; order++) {
		pages[order] = alloc_pages(GFP_KERNEL, order);
		assert_non_null(pages[order]);
		assert_int_equal(page_to_pfn(pages[order]) % (1ul << order), 0);
		assert_true(host_mem_contains(page_address(pages[order]),
					      PAGE_SIZE << order));
	}
	assert_null(alloc_pages(GFP_KERNEL, MAX_ORDER + 1));
	for (unsigned int order = 0; order <= MAX_ORDER; order++)
		free_pages(pages[order], order);
	assert_pristine();
}

/* Allocate every page, check none is handed out twice, give all back. */
static void test_exhaustion(void **state)
{
	struct page **pages = calloc(USABLE + 1, sizeof(*pages));
	unsigned long n = 0;

	while ((pages[n] = alloc_pages(__GFP_NOWARN, 0)) != NULL) {
		*(unsigned long *)page_address(pages[n]) = n;
		n++;
		assert_true(n <= USABLE);
	}
	assert_int_equal(n, USABLE);
	assert_int_equal(nr_free_pages(), 0);
	assert_null(alloc_pages(__GFP_NOWARN, 0));
	assert_null(alloc_pages(__GFP_NOWARN, 3));
	for (unsigned long i = 0; i < n; i++)
		assert_int_equal(*(unsigned long *)page_address(pages[i]), i);
	/* free in a scrambled order */
	for (unsigned long i = 0; i < n; i++)
		free_pages(pages[(i * 7919) % n], 0);
	assert_int_equal(nr_free_pages(), USABLE);
	assert_pristine();
	free(pages);
}

/* Exhaust with the largest blocks first, down to single pages. */
static void test_exhaustion_mixed(void **state)
{
	struct { struct page *page; unsigned int order; } *blocks;
	unsigned long n = 0, frames = 0;

	blocks = calloc(USABLE, sizeof(*blocks));
	for (int order = MAX_ORDER; order >= 0; order--) {
		struct page *page;

		while ((page = alloc_pages(__GFP_NOWARN, order)) != NULL) {
			memset(page_address(page), n & 0xff,
			       PAGE_SIZE << order);
			blocks[n].page = page;
			blocks[n].order = order;
			frames += 1ul << order;
			n++;
		}
	}
	assert_int_equal(frames, USABLE);
	for (unsigned long i = 0; i < n; i++) {
		const unsigned char *p = page_address(blocks[i].page);

		for (size_t j = 0; j < (PAGE_SIZE << blocks[i].order); j += 512)
			assert_int_equal(p[j], i & 0xff);
	}
	for (unsigned long i = n; i-- > 0;)
		free_pages(blocks[i].page, blocks[i].order);
	assert_pristine();
	free(blocks);
}

static void test_gfp_zero(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	memset(page_address(page), 0xab, 4 * PAGE_SIZE);
	free_pages(page, 2);
	page = alloc_pages(__GFP_ZERO, 2);
	for (size_t i = 0; i < 4 * PAGE_SIZE; i++)
		assert_int_equal(((unsigned char *)page_address(page))[i], 0);
	free_pages(page, 2);

	page = alloc_page(GFP_KERNEL);
	memset(page_address(page), 0xcd, PAGE_SIZE);
	free_pages(page, 0);
	assert_ptr_equal(alloc_page(__GFP_ZERO), page);  /* hot page reused */
	for (size_t i = 0; i < PAGE_SIZE; i++)
		assert_int_equal(((unsigned char *)page_address(page))[i], 0);
	free_pages(page, 0);
	free_pages(NULL, 3);  /* no-op */
	assert_pristine();
}

static void test_free_accounted_unaccounted(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	free_accounted_pages(page, 2);
	free_accounted_pages(NULL, 0);
	assert_pristine();
}

static void test_misuse_double_free(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct page *block = alloc_pages(GFP_KERNEL, 1);
	char pfn[32];

	free_pages(page, 0);
	snprintf(pfn, sizeof(pfn), "pfn 0x%lx",
		 (unsigned long)page_to_pfn(page));
	HOST_EXPECT_PANIC(free_pages(page, 0), "double free");
	assert_non_null(strstr(host_last_panic, pfn));
	assert_non_null(strstr(host_last_panic, "per-CPU"));

	/* after the block merged into a larger free one */
	free_pages(block, 1);
	HOST_EXPECT_PANIC(free_pages(block, 1), "double free");
	HOST_EXPECT_PANIC(free_pages(block + 1, 0), "double free");
}

static void test_misuse_wrong_order(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	HOST_EXPECT_PANIC(free_pages(page, 1), "wrong order 1");
	assert_non_null(strstr(host_last_panic, "allocated with order 2"));
	HOST_EXPECT_PANIC(free_pages(page + 2, 0), "not the first page");
	assert_non_null(strstr(host_last_panic, "order-2 block"));
	free_pages(page, 2);
}

static void test_misuse_bad_frames(void **state)
{
	struct page *page;

	HOST_EXPECT_PANIC(free_pages(pfn_to_page(0), 0),
			  "pfn 0x0: frame is reserved");
	HOST_EXPECT_PANIC(free_pages(pfn_to_page(MAP_PFN), 0), "reserved");
	HOST_EXPECT_PANIC(free_pages(pfn_to_page(max_pfn), 0),
			  "outside mem_map");
	HOST_EXPECT_PANIC(free_pages((struct page *)((char *)mem_map + 3), 0),
			  "outside mem_map");

	page = alloc_page(GFP_KERNEL);
	page->flags |= PG_kmemcg;
	HOST_EXPECT_PANIC(free_pages(page, 0), "free_accounted_pages");
	page->flags &= ~PG_kmemcg;
	page->flags |= PG_slab;
	HOST_EXPECT_PANIC(free_pages(page, 0), "slab");
	page->flags &= ~PG_slab;
	free_pages(page, 0);
}

static void test_nofail_out_of_memory(void **state)
{
	while (alloc_pages(__GFP_NOWARN, 0))
		;
	HOST_EXPECT_PANIC(alloc_pages(__GFP_NOFAIL, 0), "out of memory");
}

static void test_poisoning(void **state)
{
	struct page *page;
	unsigned char *p;

	page_poisoning = true;
	host_mem_init(MEM_SIZE);
	page = alloc_page(GFP_KERNEL);
	p = page_address(page);
	for (size_t i = 0; i < PAGE_SIZE; i++)
		assert_int_equal(p[i], PAGE_POISON_ALLOC);
	free_pages(page, 0);
	for (size_t i = 0; i < PAGE_SIZE; i++)
		assert_int_equal(p[i], PAGE_POISON_FREE);
	page = alloc_pages(__GFP_ZERO, 3);
	assert_int_equal(((unsigned char *)page_address(page))[100], 0);
	free_pages(page, 3);

	page = alloc_page(GFP_KERNEL);
	free_pages(page, 0);
	p[123] = 0x42;  /* use after free */
	HOST_EXPECT_PANIC(alloc_page(GFP_KERNEL), "use after free");
	assert_non_null(strstr(host_last_panic, "byte 123"));
	page_poisoning = false;
}

static void test_meminfo(void **state)
{
	char buf[512];
	struct page *page;
	int len;

	len = meminfo_show(buf, sizeof(buf));
	assert_int_equal(len, strlen(buf));
	assert_non_null(strstr(buf, "MemTotal:          16064 kB\n"));
	assert_non_null(strstr(buf, "MemFree:           16064 kB\n"));
	assert_non_null(strstr(buf, "Slab:                  0 kB\n"));
	assert_ptr_equal(strstr(buf, "MemTotal:"), buf);

	/* an order-0 page on the per-CPU list still counts as free */
	page = alloc_page(GFP_KERNEL);
	meminfo_show(buf, sizeof(buf));
	assert_non_null(strstr(buf, "MemFree:           16060 kB\n"));
	free_pages(page, 0);
	meminfo_show(buf, sizeof(buf));
	assert_non_null(strstr(buf, "MemFree:           16064 kB\n"));

	/* truncated output stays NUL-terminated */
	assert_int_equal(meminfo_show(buf, 10), 9);
	assert_string_equal(buf, "MemTotal:");
}

static void test_buddyinfo(void **state)
{
	char buf[512];
	int len = buddyinfo_show(buf, sizeof(buf));

	assert_int_equal(len, strlen(buf));
	assert_string_equal(buf,
		"Node 0, zone   Normal "
		"     0      0      0      0      1      1      0      1 "
		"     1      1      3 \n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_init_layout, setup),
		cmocka_unit_test_setup(test_init_ranges, setup),
		cmocka_unit_test_setup(test_split_merge, setup),
		cmocka_unit_test_setup(test_alignment, setup),
		cmocka_unit_test_setup(test_exhaustion, setup),
		cmocka_unit_test_setup(test_exhaustion_mixed, setup),
		cmocka_unit_test_setup(test_gfp_zero, setup),
		cmocka_unit_test_setup(test_free_accounted_unaccounted, setup),
		cmocka_unit_test_setup(test_misuse_double_free, setup),
		cmocka_unit_test_setup(test_misuse_wrong_order, setup),
		cmocka_unit_test_setup(test_misuse_bad_frames, setup),
		cmocka_unit_test_setup(test_nofail_out_of_memory, setup),
		cmocka_unit_test_setup(test_poisoning, setup),
		cmocka_unit_test_setup(test_meminfo, setup),
		cmocka_unit_test_setup(test_buddyinfo, setup),
	};

	setenv("HOST_QUIET", "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
