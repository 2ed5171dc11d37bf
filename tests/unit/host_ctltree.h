/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/host_ctltree.h - a small control tree for host tests and
 * fuzzers of ctlfs and the shell, with one file of every kind:
 *
 *   /test/                 a directory without handlers
 *     value                read/write: any text of 1..63 bytes, not "bad"
 *     size                 read/write: a size (memparse_size), read in bytes
 *     ro                   read only: "read only"
 *     wo                   write only
 *     empty                reads as ""
 *     noline               reads as "no newline" (no "\n" at the end)
 *     fail                 read: EBUSY "test file is busy"; write: ENOSPC,
 *                          without an explanation
 *     cg/                  mkdir makes a "domain": a directory with a file
 *                          "limit" (a size) that can hold domains in turn;
 *                          rmdir of a domain with domains in it is EBUSY
 *     long                 a long file (a show handler): HOST_LONG_LINES
 *                          lines "line N of HOST_LONG_LINES", about twice
 *                          CTL_READ_MAX
 */
#ifndef TESTS_UNIT_HOST_CTLTREE_H
#define TESTS_UNIT_HOST_CTLTREE_H

#include <stddef.h>

struct ctl_node;

#define HOST_LONG_LINES 1000

/* host_ctltree_create - build /test (kmalloc must work: host_mem_init). */
struct ctl_node *host_ctltree_create(void);

/* host_ctltree_remove - remove /test and all below it. */
void host_ctltree_remove(void);

/* host_ctl_list - the first piece of path's listing (ctl_list_at from
 * child 0): for tests of directories small enough to list in one piece. */
int host_ctl_list(const char *path, char *buf, size_t size, char *why);

#endif
