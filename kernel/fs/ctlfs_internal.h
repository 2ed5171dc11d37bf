/* SPDX-License-Identifier: MIT */
/*
 * kernel/fs/ctlfs_internal.h - what kernel/fs/ctlfs.c (the tree) shares with
 * kernel/fs/ctlfs_ops.c (the path operations). Not for other users of ctlfs.
 */
#ifndef KERNEL_CTLFS_INTERNAL_H
#define KERNEL_CTLFS_INTERNAL_H

#include "kernel/fs/ctlfs.h"

/* ctl_name_valid - may name[0..len) name a node? (see ctl_create_dir) */
bool ctl_name_valid(const char *name, size_t len);

/*
 * ctl_walk - ctl_lookup of path[0..len) (len 0: cwd itself). On failure,
 * *bad is the length of the prefix of path that names what was missing
 * (-ENOENT) or the file that was used as a directory (-ENOTDIR).
 */
int ctl_walk(struct ctl_node *cwd, const char *path, size_t len,
	     struct ctl_node **out, size_t *bad);

#endif
