// SPDX-License-Identifier: MIT
/*
 * mm/fail_page.c - fault injection: every Nth page allocation fails
 * (see mm/fail_page.h). Linux: mm/fail_page_alloc.c, which does the same
 * with a probability, an interval and a count.
 *
 * The point is the failure paths. A fork whose stack allocation fails
 * after its charge must uncharge (alloc_pages step 3); a kmalloc whose
 * slab page fails returns NULL; a shell command that cannot get memory
 * answers ENOMEM and changes nothing. Under failpage=50 every one of them
 * runs hundreds of times a second, and `check` tells whether any left a
 * charge or a page behind.
 *
 *   /proc/fail_page_alloc     read: N; write N: every Nth allocation
 *                             fails, 0: off
 *   /proc/fail_page_injected  read: how many allocations were failed
 *   failpage=N              the same from the kernel command line
 *
 * __GFP_NOFAIL allocations are never failed: their callers have no way
 * to handle NULL (and alloc_pages would panic).
 */
#include "mm/fail_page.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/lib/cmdline.h"

unsigned long fail_page_interval;
/* Allocations seen while injection is on, and failures injected. */
static unsigned long fail_page_calls;
static unsigned long fail_page_failed;

bool __should_fail_alloc_page(gfp_t gfp, unsigned int order)
{
	unsigned long interval = READ_ONCE(fail_page_interval);
	unsigned long n;

	if (interval == 0 || (gfp & __GFP_NOFAIL))
		return false;
	n = __atomic_add_fetch(&fail_page_calls, 1, __ATOMIC_RELAXED);
	if (n % interval != 0)
		return false;
	__atomic_add_fetch(&fail_page_failed, 1, __ATOMIC_RELAXED);
	return true;
}

void fail_page_set(unsigned long interval)
{
	__atomic_store_n(&fail_page_calls, 0, __ATOMIC_RELAXED);
	WRITE_ONCE(fail_page_interval, interval);
}

unsigned long fail_page_injected(void)
{
	return READ_ONCE(fail_page_failed);
}

int fail_page_parse(const char *text, unsigned long *interval)
{
	unsigned long value = 0;

	if (!text[0] || strlen(text) > 10)
		return -EINVAL;
	for (const char *p = text; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		value = value * 10 + (unsigned long)(*p - '0');
	}
	if (value > FAIL_PAGE_MAX)
		return -EINVAL;
	*interval = value;
	return 0;
}

/* --- what /proc/fail_page_alloc and /proc/fail_page_injected hold ------- */

int fail_page_show(char *buf, size_t size)
{
	return snprintf(buf, size, "%lu\n", READ_ONCE(fail_page_interval));
}

int fail_page_injected_show(char *buf, size_t size)
{
	return snprintf(buf, size, "%lu\n", fail_page_injected());
}

int fail_page_write(const char *value)
{
	unsigned long interval;

	if (fail_page_parse(value, &interval) < 0)
		return -EINVAL;
	fail_page_set(interval);
	return 0;
}

void fail_page_apply_cmdline(void)
{
	char value[16];
	unsigned long interval;

	if (!cmdline_value("failpage", value, sizeof(value)))
		return;
	if (fail_page_parse(value, &interval) < 0) {
		printk("fail_page: ignoring failpage=%s: not a number of "
		       "allocations (0..%lu)\n", value, FAIL_PAGE_MAX);
		return;
	}
	if (interval)
		printk("fail_page: every %luth page allocation fails\n",
		       interval);
	fail_page_set(interval);
}
