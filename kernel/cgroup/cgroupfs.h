/* SPDX-License-Identifier: MIT */
/*
 * kernel/cgroup/cgroupfs.h - the /cgroup tree of control files: one directory
 * per domain, with the files docs/interface.md lists (cgroup v1 names).
 */
#ifndef KERNEL_CGROUPFS_H
#define KERNEL_CGROUPFS_H

struct mem_cgroup;

/*
 * cgroupfs_init - make /cgroup, the root domain's directory, with its
 * files. Called once at boot, after mm_init, before other CPUs use the
 * control tree (a second call does nothing). Returns 0 or -ENOMEM.
 */
int cgroupfs_init(void);

/*
 * cgroupfs_get_domain - the domain whose directory is path (an absolute
 * path: "/cgroup", "/cgroup/A"), with a reference (mem_cgroup_put it).
 * For `run DOMAIN PROGRAM`. Returns 0, -ENOENT (no such directory, or
 * not a domain's), or -ENOTDIR (a file).
 */
int cgroupfs_get_domain(const char *path, struct mem_cgroup **out);

#endif
