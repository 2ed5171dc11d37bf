/* SPDX-License-Identifier: MIT */
/*
 * mm/fail_page.h - fault injection for the page allocator: make every Nth
 * page allocation fail, to exercise the failure paths (Linux:
 * fail_page_alloc, mm/fail_page_alloc.c).
 *
 * Set with `failpage=N` on the kernel command line or by writing N to
 * /proc/fail_page_alloc (0: off). alloc_pages() asks
 * should_fail_alloc_page() at step 2, after the charge: a failed page
 * arrives as NULL at step 3, which must give the charge back.
 */
#ifndef MM_FAIL_PAGE_H
#define MM_FAIL_PAGE_H

#include <stdbool.h>

#include "kernel/base/platform.h"
#include "mm/gfp.h"

/* Every fail_page_interval-th allocation fails; 0: none. */
extern unsigned long fail_page_interval;

bool __should_fail_alloc_page(gfp_t gfp, unsigned int order);

/*
 * should_fail_alloc_page - should this allocation fail, by fault
 * injection? Never for __GFP_NOFAIL. Costs one load while it is off.
 */
static inline bool should_fail_alloc_page(gfp_t gfp, unsigned int order)
{
	if (likely(READ_ONCE(fail_page_interval) == 0))
		return false;
	return __should_fail_alloc_page(gfp, order);
}

/* fail_page_set - every interval-th allocation fails from now on (0: off). */
void fail_page_set(unsigned long interval);

/* fail_page_injected - how many allocations were failed on purpose. */
unsigned long fail_page_injected(void);

/* fail_page_parse - interval from text: decimal digits, nothing else,
 * at most FAIL_PAGE_MAX. Returns 0 or -EINVAL (*interval unchanged). */
#define FAIL_PAGE_MAX 1000000000ul
int fail_page_parse(const char *text, unsigned long *interval);

/*
 * The text of /proc/fail_page_alloc and /proc/fail_page_injected
 * (kernel/fs/proc_mm.c makes the files): fail_page_show prints the
 * interval, fail_page_injected_show the count of injected failures, each
 * as "N\n" into buf (at most size bytes with the NUL), and return the
 * length; fail_page_write takes an interval as fail_page_parse reads it
 * and sets it, returning 0, or -EINVAL with nothing changed.
 */
int fail_page_show(char *buf, size_t size);
int fail_page_injected_show(char *buf, size_t size);
int fail_page_write(const char *value);

/* fail_page_apply_cmdline - apply failpage=N from the command line. Called
 * once the kernel's own start-up allocations, which have no way to fail,
 * are done: by the shell task, before its first prompt. */
void fail_page_apply_cmdline(void);

#endif
