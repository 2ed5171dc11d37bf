/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcg_check.h - verifying the accounting invariants
 * (docs/interface.md), for the `check` command, the in-kernel tests and the
 * fuzzer.
 */
#ifndef MM_MEMCG_CHECK_H
#define MM_MEMCG_CHECK_H

#include <stddef.h>

/*
 * memcg_check - verify, over every domain and every page:
 *   - kmem usage = bytes of the kernel pages charged to the domain (and,
 *     through use_hierarchy, to its descendants);
 *   - res usage = user bytes + kmem bytes + bytes in CPU stocks, likewise;
 *   - usage <= limit and max_usage >= usage at every counter; no counter
 *     or page count negative; the root never charged;
 *   - the pages charged to domains + the free pages + the allocated pages
 *     charged to none = all pages (and the free pages are what the
 *     allocator counts);
 *   - the tree: kmem_accounted's PARENT bit, the tasks lists, the numbers
 *     of domains and of dying ones.
 * @buf:  where each failure goes, as one line ending in "\n" (no "check:"
 *        prefix); if they do not all fit, a last line says how many more
 * @size: bytes at buf (at least 128)
 *
 * Exact when nothing is allocated or charged meanwhile. Takes
 * memcg_tree_lock: not to be called with it held.
 *
 * Returns the number of failures: 0 when every invariant holds.
 */
int memcg_check(char *buf, size_t size);

#endif
