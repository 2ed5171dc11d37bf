/* SPDX-License-Identifier: MIT */
/*
 * kernel/cgroup/cgroup_path.h - a domain's path as Linux prints a cgroup's:
 * from the root of its hierarchy, not from where the tree is mounted. The
 * root is "/", its child A is "/A" (whether the tree is at /cgroup or at
 * /sys/fs/cgroup). /proc/PID/cgroup and the pids controller's "fork
 * rejected" line print it.
 */
#ifndef KERNEL_CGROUP_PATH_H
#define KERNEL_CGROUP_PATH_H

#include <stddef.h>

struct mem_cgroup;

/*
 * cgroup_path - memcg's path into buf (truncated to fit, always
 * NUL-terminated); returns the length of the whole path, as snprintf.
 * Called with memcg_tree_lock held (dying domains keep their parent and
 * name, so they have a path too).
 */
size_t cgroup_path(const struct mem_cgroup *memcg, char *buf, size_t size);

#endif
