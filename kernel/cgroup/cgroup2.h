/* SPDX-License-Identifier: MIT */
/*
 * kernel/cgroup/cgroup2.h - the cgroup v2 tree at /sys/fs/cgroup, made
 * instead of /cgroup when the kernel boots with cgroup=v2 (Linux:
 * kernel/cgroup/cgroup.c, the default hierarchy).
 *
 * Each directory is a struct cgroup2 over one domain (struct mem_cgroup):
 * the domain does the accounting, the cgroup2 keeps what only the v2
 * interface has - which controllers the directory enables for its
 * children (cgroup.subtree_control), and its limits on descendants.
 *
 *   kernel/cgroup/cgroup2.c         the tree: mkdir, rmdir, controllers
 *                                   turned on and off, /sys/fs/cgroup
 *   kernel/cgroup/cgroup2_core.c    the cgroup.* files
 *   kernel/cgroup/cgroup2_memory.c  the memory.* files
 *
 * Everything here runs under the control tree's lock (ctl_lock).
 */
#ifndef KERNEL_CGROUP2_H
#define KERNEL_CGROUP2_H

#include <stdbool.h>
#include <stddef.h>

struct ctl_node;
struct ctl_ops;
struct mem_cgroup;

/* The controllers, in the order cgroup.controllers lists them. */
enum cgroup2_controller_id {
	CGROUP2_MEMORY,
	CGROUP2_PIDS,
	CGROUP2_NR_CONTROLLERS,
};

struct cgroup2 {
	struct mem_cgroup *memcg;   /* its domain, with a reference */
	struct ctl_node *dir;       /* its directory */
	struct cgroup2 *parent;     /* NULL for the root */
	unsigned int subtree_control;  /* 1 << CGROUP2_* enabled below */
	int max_descendants;        /* cgroup.max.descendants; INT_MAX: max */
	int max_depth;              /* cgroup.max.depth; INT_MAX: max */
	bool swap_max_zero;         /* memory.swap.max was set to 0 */
};

/* A file of a controller (or of the core): not_on_root ones are made in
 * every directory but the root. */
struct cgroup2_file {
	const char *name;
	const struct ctl_ops *ops;
	bool not_on_root;
};

struct cgroup2_controller {
	const char *name;
	/* A domain controller obeys "no internal processes": it cannot be
	 * enabled below a directory that has tasks of its own (memory);
	 * pids can. */
	bool domain;
	/* Make its files in cg's directory (a child of a directory that
	 * enables it): false if out of memory, with none left made. Remove
	 * them again (nothing if they are not there). */
	bool (*add_files)(struct cgroup2 *cg);
	void (*remove_files)(struct cgroup2 *cg);
};

extern const struct cgroup2_controller
	cgroup2_controllers[CGROUP2_NR_CONTROLLERS];

/* The core files (kernel/cgroup/cgroup2_core.c) and the memory files
 * (kernel/cgroup/cgroup2_memory.c); the root has its memory files (those
 * not not_on_root) whatever it enables. */
extern const struct cgroup2_file cgroup2_core_files[];
extern const size_t cgroup2_nr_core_files;
extern const struct cgroup2_file cgroup2_memory_files[];
extern const size_t cgroup2_nr_memory_files;

/* cgroup2_of - the cgroup2 of a v2 file or directory. */
struct cgroup2 *cgroup2_of(struct ctl_node *node);

/* cgroup2_controllers_mask - what cgroup.controllers lists: every
 * controller in the root, the parent's subtree_control below. */
unsigned int cgroup2_controllers_mask(const struct cgroup2 *cg);

/*
 * cgroup2_set_subtree_control - cgroup.subtree_control: enable and
 * disable (bit masks, disjoint) below cg, making or removing the
 * controllers' files in every child. All or nothing. Returns 0, -ENOENT,
 * -EBUSY or -ENOMEM (explained with ctl_error).
 */
int cgroup2_set_subtree_control(struct cgroup2 *cg, unsigned int enable,
				unsigned int disable);

/* cgroup2_init - make /sys/fs/cgroup over the root domain (cgroup=v2).
 * Returns 0 or -ENOMEM. */
int cgroup2_init(void);

/*
 * cgroup2_get_domain - the domain of the v2 directory path, with a
 * reference, for `run`: -ENOENT, -ENOTDIR, or -EBUSY if it is not the
 * root and enables a controller (no task may join it).
 */
int cgroup2_get_domain(const char *path, struct mem_cgroup **out);

#endif
