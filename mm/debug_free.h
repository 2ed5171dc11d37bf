/* SPDX-License-Identifier: MIT */
/*
 * mm/debug_free.h - optional checks of every block freed to the page
 * allocator, behind a static key: off (a 5-byte NOP in free_pages) unless
 * switched on with
 *
 *   echo 1 > /proc/sys/debug_check_on_free
 *
 * The second user of static keys (after memcg_kmem_enabled_key), and an
 * example of what they are for: a check too slow to leave on, cheap enough
 * to compile in everywhere.
 */
#ifndef MM_DEBUG_FREE_H
#define MM_DEBUG_FREE_H

#include <stddef.h>

#include "kernel/base/static_key.h"
#include "mm/page.h"

extern struct static_key debug_check_on_free_key;

/*
 * The debug build (make DEBUG=1: CONFIG_DEBUG_POISON) starts with both
 * poisons on - slab_debug (mm/slab.h) and page_poisoning (mm/buddy.h):
 * freed objects and pages are filled with a pattern and checked when they
 * are handed out again, so that a write after free panics, naming the
 * object and its cache, or the frame. The normal build starts with both
 * off.
 */
#ifdef CONFIG_DEBUG_POISON
#define DEBUG_POISON_DEFAULT true
#else
#define DEBUG_POISON_DEFAULT false
#endif

/* debug_check_on_free - are free-time checks on? */
static inline bool debug_check_on_free(void)
{
	return static_branch_unlikely(&debug_check_on_free_key);
}

/*
 * debug_check_free_block - what free_page_flags_check
 * (mm/page_alloc_internal.h) cannot see from the first page's flags
 * alone; panics, naming the frame, unless
 *   - the block starts at a multiple of 2^order frames and ends in RAM;
 *   - its first page has a domain (page->memcg) exactly when it has
 *     PG_kmemcg (a domain without the flag is a charge that is never
 *     given back);
 *   - every other page of the block has no flags, order 0 and no domain
 *     (anything else means two blocks overlap: a wrong order somewhere,
 *     or a corrupted page descriptor);
 *   - the block is not the stack this CPU is running on.
 * Costs one look at each of the 2^order page descriptors.
 */
void debug_check_free_block(const char *who, const struct page *page,
			    unsigned int order);

/*
 * debug_free_show/debug_free_write - the contents of
 * /proc/sys/debug_check_on_free (kernel/fs/proc_mm.c makes the file):
 * show prints "0\n" or "1\n" into buf (at most size bytes with the NUL)
 * and returns the length; write takes "1" (the file takes a reference on
 * debug_check_on_free_key, once) or "0" (gives it back), and returns 0 or
 * -EINVAL for anything else.
 */
int debug_free_show(char *buf, size_t size);
int debug_free_write(const char *value);

#endif
