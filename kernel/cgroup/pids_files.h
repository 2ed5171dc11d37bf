/* SPDX-License-Identifier: MIT */
/*
 * kernel/cgroup/pids_files.h - the pids controller's control files, as
 * Linux names and prints them (Linux: pids_files[] in kernel/cgroup/pids.c):
 *
 *   pids.max           "max" (the default) or a number, 0..4194304; write
 *                      either. "-1", a larger number or anything else:
 *                      EINVAL; a number too large for 64 bits: ERANGE. A
 *                      limit below pids.current is allowed.
 *   pids.current       tasks in the domain and below, zombies until reaped
 *   pids.peak          the highest pids.current seen
 *   pids.events        "max N": forks refused because of the limit of this
 *                      domain or of one below it
 *   pids.events.local  "max N": forks refused because of this limit
 *
 * None is in the root. Each file's private pointer is its domain (struct
 * mem_cgroup); the counts are in kernel/cgroup/pids.c. The v1 tree
 * (/cgroup) and the v2 tree both make them from this table.
 */
#ifndef KERNEL_CGROUP_PIDS_FILES_H
#define KERNEL_CGROUP_PIDS_FILES_H

#include <stdbool.h>
#include <stddef.h>

struct ctl_node;
struct ctl_ops;
struct mem_cgroup;

struct pids_file {
	const char *name;
	const struct ctl_ops *ops;
};

/* The files, in the order ls shows them. */
extern const struct pids_file pids_files[];
extern const size_t nr_pids_files;

/* pids_files_create - make the files in dir, a non-root domain's
 * directory, with memcg as their private pointer; false if out of memory
 * (the caller removes the directory). */
bool pids_files_create(struct ctl_node *dir, struct mem_cgroup *memcg);

#endif
