// SPDX-License-Identifier: MIT
/*
 * mm/debug_free.c - optional checks of every block freed to the page
 * allocator (mm/debug_free.h), and the control file that switches them.
 */
#include "mm/debug_free.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/base/platform.h"

/* Off until /proc/sys/debug_check_on_free says 1 (or a test takes it). */
DEFINE_STATIC_KEY_FALSE(debug_check_on_free_key);

static const char *flag_names(uint32_t flags, char *buf, size_t size)
{
	static const char *const names[] = {"reserved", "buddy", "pcp",
					    "slab", "head", "kmemcg", "user"};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(names) && len < size; i++)
		if (flags & (1u << i))
			len += snprintf(buf + len, size - len, "%s%s",
					len ? "," : "", names[i]);
	return buf;
}


void debug_check_free_block(const char *who, const struct page *page,
			    unsigned int order)
{
	uint64_t pfn = page_to_pfn(page);
	uint64_t nr = 1ull << order;
	char names[64];

	if (pfn & (nr - 1))
		panic("%s: pfn 0x%lx: an order-%u block must start at a "
		      "multiple of %lu frames", who, (unsigned long)pfn, order,
		      (unsigned long)nr);
	if (pfn + nr > max_pfn)
		panic("%s: pfn 0x%lx: the order-%u block runs past the end of "
		      "RAM (pfn 0x%lx)", who, (unsigned long)pfn, order,
		      (unsigned long)max_pfn);
	if (!(page->flags & PG_kmemcg) && page->memcg)
		panic("%s: pfn 0x%lx: page has a domain (%p) but no PG_kmemcg: "
		      "its charge would never be given back", who,
		      (unsigned long)pfn, (void *)page->memcg);
	for (uint64_t i = 1; i < nr; i++) {
		const struct page *tail = page + i;

		if (tail->flags || tail->order || tail->memcg)
			panic("%s: pfn 0x%lx: page %lu of the order-%u block "
			      "being freed is in use (flags 0x%x %s, order %u, "
			      "domain %p): blocks overlap", who,
			      (unsigned long)(pfn + i), (unsigned long)i, order,
			      tail->flags,
			      flag_names(tail->flags, names, sizeof(names)),
			      tail->order, (void *)tail->memcg);
	}
	uintptr_t start = (uintptr_t)page_address(page);
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	if (sp >= start && sp < start + (nr << PAGE_SHIFT))
		panic("%s: pfn 0x%lx: freeing the stack this CPU is running on",
		      who, (unsigned long)pfn);
}

/* --- what /proc/sys/debug_check_on_free reads and writes ------------------ */

/* Whether the file holds a reference on the key (the control tree runs
 * one handler at a time, under its lock). */
static bool proc_on;

int debug_free_show(char *buf, size_t size)
{
	return snprintf(buf, size, "%d\n", proc_on ? 1 : 0);
}

int debug_free_write(const char *value)
{
	bool on;

	if (!strcmp(value, "1"))
		on = true;
	else if (!strcmp(value, "0"))
		on = false;
	else
		return -EINVAL;
	if (on == proc_on)
		return 0;
	if (on)
		static_key_slow_inc(&debug_check_on_free_key);
	else
		static_key_slow_dec(&debug_check_on_free_key);
	proc_on = on;
	return 0;
}
