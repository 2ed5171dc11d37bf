// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_buddy.c - libFuzzer target for the page allocator and
 * kmalloc (mm/buddy.c, mm/pcp.c, mm/slab.c, mm/slab_alloc.c).
 *
 * Each input is a program: its bytes, three at a time, say allocate (pages
 * of some order, kmalloc of some size, an object of a cache), free which
 * live allocation, switch to which CPU, drain, shrink. Every allocation is
 * checked to be inside RAM and to overlap no live allocation, and is
 * tagged; the tags are checked when it is freed. At the end everything is
 * freed and all memory must come back: nr_free_pages() as at the start and
 * the free lists exactly as mm_init left them.
 *
 * Every input starts from a fresh mm_init, so no state leaks between
 * inputs; its first byte also turns page poisoning and slab debugging on.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/buddy.h"
#include "mm/pcp.h"
#include "mm/slab.h"
#include "tests/unit/host_mem.h"

#define MEM_SIZE (16ul << 20)
#define NCPUS 4
#define MAX_LIVE 256

enum kind { PAGES, KMALLOC, CACHE };

struct live {
	enum kind kind;
	unsigned char *p;
	size_t len;
	unsigned int order;   /* PAGES */
	uint64_t tag;
};

static struct live live[MAX_LIVE];
static int nr_live;
static struct kmem_cache *cache;
static size_t cache_size;
static uint64_t next_tag;
static const unsigned char zero_page[PAGE_SIZE];

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_buddy: %s\n", what);
		abort();
	}
}

static void put_tag(unsigned char *p, size_t len, uint64_t tag)
{
	if (len >= 16) {
		memcpy(p, &tag, 8);
		memcpy(p + len - 8, &tag, 8);
	} else {
		memset(p, (int)(tag & 0xff), len);
	}
}

static void check_tag(const struct live *l)
{
	uint64_t a, b;

	if (l->len >= 16) {
		memcpy(&a, l->p, 8);
		memcpy(&b, l->p + l->len - 8, 8);
		check(a == l->tag && b == l->tag,
		      "an allocation was overwritten");
	} else {
		for (size_t i = 0; i < l->len; i++)
			check(l->p[i] == (l->tag & 0xff),
			      "a small allocation was overwritten");
	}
}

static void add_live(enum kind kind, void *p, size_t len, unsigned int order,
		     int zeroed)
{
	unsigned char *c = p;

	check(host_mem_contains(p, len), "allocation outside RAM");
	for (int i = 0; i < nr_live; i++)
		check(c + len <= live[i].p || live[i].p + live[i].len <= c,
		      "two live allocations overlap");
	if (zeroed)
		for (size_t i = 0; i < len; i += sizeof(zero_page)) {
			size_t n = len - i;

			if (n > sizeof(zero_page))
				n = sizeof(zero_page);

			check(memcmp(c + i, zero_page, n) == 0,
			      "__GFP_ZERO memory is not zero");
		}
	live[nr_live] = (struct live){kind, c, len, order, ++next_tag};
	put_tag(c, len, live[nr_live].tag);
	nr_live++;
}

static void free_live(int i)
{
	struct live l = live[i];

	check_tag(&l);
	live[i] = live[--nr_live];
	switch (l.kind) {
	case PAGES:
		free_pages(virt_to_page(l.p), l.order);
		break;
	case KMALLOC:
		kfree(l.p);
		break;
	case CACHE:
		kmem_cache_free(cache, l.p);
		break;
	}
}

static void shrink_all(void)
{
	struct kmem_cache *c;

	list_for_each_entry(c, &slab_caches, list)
		kmem_cache_shrink(c);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	setenv("HOST_QUIET", "1", 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long start, pristine[MAX_ORDER + 1];

	nr_cpus = NCPUS;
	host_set_cpu(0);
	page_poisoning = size > 0 && (data[0] & 0x11) == 0x11;
	slab_debug = size > 0 && (data[0] & 2);
	host_mem_init(MEM_SIZE);
	for (int order = 0; order <= MAX_ORDER; order++)
		pristine[order] = zone_normal.free_area[order].nr_free;
	start = nr_free_pages();
	check(start == totalram_pages, "not all memory is free after mm_init");

	nr_live = 0;
	cache_size = size > 1 ? 1 + data[1] * 4 : 24;
	cache = kmem_cache_create("fuzz", cache_size,
				  size > 2 ? 1u << (data[2] % 7) : 0, 0);
	check(cache != NULL, "kmem_cache_create failed");

	for (size_t pos = 3; pos + 3 <= size; pos += 3) {
		uint8_t op = data[pos], a = data[pos + 1], b = data[pos + 2];
		gfp_t gfp = __GFP_NOWARN | ((b & 0x80) ? __GFP_ZERO : 0);

		if (nr_live == MAX_LIVE && op % 8 <= 4)
			op = 2;  /* full: free something instead */
		switch (op % 8) {
		case 0:
		case 1: {
			/* mostly small orders, sometimes large ones */
			unsigned int order = (a & 0x80) ? a % (MAX_ORDER + 1)
							: a % 4;
			struct page *page = alloc_pages(gfp, order);

			if (page) {
				check(page_to_pfn(page) % (1ul << order) == 0,
				      "block not aligned to its order");
				add_live(PAGES, page_address(page),
					 PAGE_SIZE << order, order,
					 gfp & __GFP_ZERO);
			}
			break;
		}
		case 2:
			if (nr_live)
				free_live(((a << 8) | b) % nr_live);
			break;
		case 3: {
			/* up to 128 KiB, or small sizes up to 4 KiB */
			size_t len = (a & 0x80) ?
				     ((size_t)(a & 0x7f) << 8 | b) * 4 :
				     ((size_t)a << 4 | (b & 0xf));
			void *p = kmalloc(len, gfp);

			if (p)
				add_live(KMALLOC, p, len ? len : 1, 0,
					 gfp & __GFP_ZERO);
			break;
		}
		case 4: {
			void *p = kmem_cache_alloc(cache, gfp);

			if (p)
				add_live(CACHE, p, cache_size, 0,
					 gfp & __GFP_ZERO);
			break;
		}
		case 5:
			host_set_cpu(a % NCPUS);
			break;
		case 6:
			if (a & 1)
				drain_all_pages();
			else
				drain_local_pages();
			break;
		case 7:
			shrink_all();
			break;
		}
		check(nr_free_pages() <= totalram_pages,
		      "more free than total");
	}

	while (nr_live)
		free_live(nr_live - 1);
	kmem_cache_destroy(cache);
	shrink_all();
	check(nr_free_pages() == start, "pages were lost or freed twice");
	drain_all_pages();
	for (int order = 0; order <= MAX_ORDER; order++)
		check(zone_normal.free_area[order].nr_free == pristine[order],
		      "free lists did not merge back to the start");
	page_poisoning = false;
	slab_debug = false;
	return 0;
}
