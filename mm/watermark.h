/* SPDX-License-Identifier: MIT */
/*
 * mm/watermark.h - the memory reserve of the system's own tasks (Linux:
 * the min watermark, min_free_kbytes, and PF_MEMALLOC).
 *
 * A fork bomb in the root domain is charged to nobody, so no limit stops
 * it: it forks until the buddy allocator is empty. The shell must still
 * answer, and `echo 1 > /cgroup/cgroup.kill` must still work, and that
 * takes memory (a slab page for a buffer, a control-file node, a task
 * snapshot for ps). So the last min_free_pages free pages are kept for
 * those who may dip into them: system tasks (shell, idle, reaper, per-CPU
 * workers), interrupt handlers, and __GFP_NOFAIL or __GFP_ATOMIC
 * allocations. Every other allocation - a user task's stack, its task
 * struct, its user pages - fails with NULL (ENOMEM) once free memory is at
 * the reserve.
 */
#ifndef MM_WATERMARK_H
#define MM_WATERMARK_H

#include <stdbool.h>

#include "mm/buddy.h"

/* Free pages kept for system tasks; 0 until watermark_init(). */
extern unsigned long min_free_pages;

bool __zone_watermark_ok(gfp_t gfp, unsigned int order);

/*
 * zone_watermark_ok - may the current context take 2^order pages now?
 * Always, while the buddy free lists alone hold twice the reserve (one
 * load: the common case); near the reserve, only those allowed to use it.
 */
static inline bool zone_watermark_ok(gfp_t gfp, unsigned int order)
{
	if (likely(READ_ONCE(zone_normal.free_pages) > 2 * min_free_pages))
		return true;
	return __zone_watermark_ok(gfp, order);
}

/* watermark_init - size the reserve from the memory there is: 1/256 of
 * it, at least 128 pages (512 KiB), at most 2048 (8 MiB). Once, after
 * the boot memory is free. */
void watermark_init(void);

#endif
