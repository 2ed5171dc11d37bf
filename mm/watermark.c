// SPDX-License-Identifier: MIT
/*
 * mm/watermark.c - the memory reserve of system tasks (see
 * mm/watermark.h). Linux keeps per-zone min/low/high watermarks from
 * min_free_kbytes (about sqrt(16 * lowmem KiB)) and lets PF_MEMALLOC
 * tasks and atomic allocations go below min; tally has one zone and one
 * watermark, and lets its system tasks below it.
 */
#include "mm/watermark.h"

#include "kernel/task/task.h"

unsigned long min_free_pages;

#define MIN_FREE_PAGES_LOW 128ul    /* 512 KiB */
#define MIN_FREE_PAGES_HIGH 2048ul  /* 8 MiB */

/* may_use_reserve - is the caller one for whom the reserve is kept? */
static bool may_use_reserve(gfp_t gfp)
{
	struct task *task = current;

	if (gfp & (__GFP_NOFAIL | __GFP_ATOMIC))
		return true;
	if (in_interrupt())
		return true;
	/*
	 * A system task that allocates for a domain (the shell's `run`
	 * creating a task there, under set_active_memcg) is not using the
	 * memory for the system: the reserve is not its to take.
	 */
	return !task ||
	       ((task->flags & TASK_SYSTEM) && !READ_ONCE(task->active_memcg));
}

bool __zone_watermark_ok(gfp_t gfp, unsigned int order)
{
	if (min_free_pages == 0 || may_use_reserve(gfp))
		return true;
	/* Near the reserve: count the per-CPU lists' pages too. */
	return nr_free_pages() >= min_free_pages + (1ul << order);
}

void watermark_init(void)
{
	unsigned long pages = totalram_pages / 256;

	if (pages < MIN_FREE_PAGES_LOW)
		pages = MIN_FREE_PAGES_LOW;
	if (pages > MIN_FREE_PAGES_HIGH)
		pages = MIN_FREE_PAGES_HIGH;
	WRITE_ONCE(min_free_pages, pages);
}
