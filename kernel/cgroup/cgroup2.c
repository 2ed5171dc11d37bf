// SPDX-License-Identifier: MIT
/*
 * kernel/cgroup/cgroup2.c - the cgroup v2 tree: /sys/fs/cgroup, mkdir and
 * rmdir, and controllers turned on and off for a directory's children
 * (Linux: cgroup_mkdir, cgroup_rmdir, cgroup_subtree_control_write in
 * kernel/cgroup/cgroup.c). See kernel/cgroup/cgroup2.h.
 *
 * A controller's files live in the children of a directory that enables
 * it, as Linux's do: enabling memory in A makes memory.max and the rest
 * in each child of A, and in each child made later. Every directory's
 * domain is charged whatever is enabled (tally has one memory counter
 * per domain, and no other place to put the charge); the files are how
 * a user sees and limits it.
 */
#include "kernel/cgroup/cgroup2.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "kernel/cgroup/cgroupfs.h"
#include "kernel/cgroup/pids.h"
#include "kernel/cgroup/pids_files.h"
#include "kernel/fs/ctlfs.h"
#include "mm/memcg/memcg_protection.h"
#include "mm/memcg/memcg_stat.h"
#include "mm/memcg/memcg_v2.h"
#include "mm/memcg/memcontrol.h"
#include "mm/slab.h"

static struct cgroup2 root_cgroup2 = {
	.max_descendants = INT_MAX,
	.max_depth = INT_MAX,
};

struct cgroup2 *cgroup2_of(struct ctl_node *node)
{
	return ctl_priv(node);
}

unsigned int cgroup2_controllers_mask(const struct cgroup2 *cg)
{
	if (!cg->parent)
		return (1u << CGROUP2_NR_CONTROLLERS) - 1;
	return cg->parent->subtree_control;
}

/* add_files - make files[0..n) in cg's directory (those for the root
 * only there); false if out of memory, with those made removed again. */
static bool add_files(struct cgroup2 *cg, const struct cgroup2_file *files,
		      size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (files[i].not_on_root && !cg->parent)
			continue;
		if (!ctl_create_file(cg->dir, files[i].name, files[i].ops,
				     cg)) {
			while (i-- > 0) {
				struct ctl_node *f;

				if (ctl_lookup(cg->dir, files[i].name, &f) ==
				    0)
					ctl_remove(f);
			}
			return false;
		}
	}
	return true;
}

static void remove_files(struct cgroup2 *cg, const struct cgroup2_file *files,
			 size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ctl_node *f;

		if (ctl_lookup(cg->dir, files[i].name, &f) == 0)
			ctl_remove(f);
	}
}

static bool memory_add(struct cgroup2 *cg)
{
	return add_files(cg, cgroup2_memory_files, cgroup2_nr_memory_files);
}

static void memory_remove(struct cgroup2 *cg)
{
	remove_files(cg, cgroup2_memory_files, cgroup2_nr_memory_files);
}

/* pids.* (kernel/cgroup/pids_files.c) belong to the domain, as in v1. */
static void pids_remove(struct cgroup2 *cg)
{
	for (size_t i = 0; i < nr_pids_files; i++) {
		struct ctl_node *f;

		if (ctl_lookup(cg->dir, pids_files[i].name, &f) == 0)
			ctl_remove(f);
	}
}

static bool pids_add(struct cgroup2 *cg)
{
	if (pids_files_create(cg->dir, cg->memcg))
		return true;
	pids_remove(cg);
	return false;
}

const struct cgroup2_controller cgroup2_controllers[CGROUP2_NR_CONTROLLERS] = {
	[CGROUP2_MEMORY] = {"memory", true, memory_add, memory_remove},
	[CGROUP2_PIDS] = {"pids", false, pids_add, pids_remove},
};

/* for_each_child - the cgroup2 of each child directory of cg. */
#define for_each_child(child, node, cg)                                       \
	for (node = ctl_first_child((cg)->dir); node;                         \
	     node = ctl_next_sibling(node))                                   \
		if (ctl_is_dir(node) && (child = cgroup2_of(node)))

/* reset_memory - memory was turned off above cg: its limits go, and its
 * events and peak start again, as a new memory controller would start
 * (Linux makes a new css). The charges stay: they are the domain's. */
static void reset_memory(struct cgroup2 *cg)
{
	struct mem_cgroup *memcg = cg->memcg;

	memcg_v2_set_max(memcg, RES_COUNTER_MAX);
	memcg_v2_set_high(memcg, RES_COUNTER_MAX);
	memcg_protection_set(memcg, true, 0);
	memcg_protection_set(memcg, false, 0);
	memcg->v2.oom_group = false;
	memcg_v2_reset_events(memcg);
	mem_cgroup_reset_max(memcg, false);
	cg->swap_max_zero = false;
}

int cgroup2_set_subtree_control(struct cgroup2 *cg, unsigned int enable,
				unsigned int disable)
{
	unsigned int allowed = cgroup2_controllers_mask(cg);
	struct cgroup2 *child;
	struct ctl_node *node;

	enable &= ~cg->subtree_control;   /* already on: nothing to do */
	disable &= cg->subtree_control;   /* already off: nothing to do */
	for (int id = 0; id < CGROUP2_NR_CONTROLLERS; id++) {
		const char *name = cgroup2_controllers[id].name;

		if (!(enable & (1u << id)))
			continue;
		if (!(allowed & (1u << id)))
			return ctl_error(ENOENT, "%s is not in this "
					 "directory's cgroup.controllers",
					 name);
		if (cgroup2_controllers[id].domain && cg->parent &&
		    READ_ONCE(cg->memcg->nr_tasks))
			return ctl_error(EBUSY, "the directory has tasks of "
					 "its own: no internal processes "
					 "with %s", name);
	}
	for_each_child(child, node, cg)
		if (child->subtree_control & disable)
			return ctl_error(EBUSY, "the child %s still enables "
					 "it", ctl_name(node));

	/* Make the files first: only they can fail. */
	for (int id = 0; id < CGROUP2_NR_CONTROLLERS; id++) {
		const struct cgroup2_controller *c = &cgroup2_controllers[id];

		if (!(enable & (1u << id)))
			continue;
		for_each_child(child, node, cg) {
			if (c->add_files(child))
				continue;
			/* Undo: the controllers' files made so far. */
			for (int undo = 0; undo <= id; undo++) {
				struct ctl_node *n;
				struct cgroup2 *ch;

				if (!(enable & (1u << undo)))
					continue;
				for_each_child(ch, n, cg)
					cgroup2_controllers[undo]
						.remove_files(ch);
			}
			return ctl_error(ENOMEM, "no memory for the files "
					 "of %s", c->name);
		}
	}
	for (int id = 0; id < CGROUP2_NR_CONTROLLERS; id++) {
		if (!(disable & (1u << id)))
			continue;
		for_each_child(child, node, cg) {
			cgroup2_controllers[id].remove_files(child);
			if (id == CGROUP2_MEMORY)
				reset_memory(child);
			else
				pids_reset(child->memcg);
		}
	}
	cg->subtree_control = (cg->subtree_control | enable) & ~disable;
	return 0;
}

/* --- mkdir and rmdir ------------------------------------------------------ */

static int cgroup2_mkdir(struct ctl_node *dir, const char *name);
static int cgroup2_rmdir(struct ctl_node *dir);

static const struct ctl_ops cgroup2_dir_ops = {
	.mkdir = cgroup2_mkdir,
	.rmdir = cgroup2_rmdir,
};

/* populate - a new directory's files: the core ones, then those of each
 * controller its parent enables; the root's: the core ones and its
 * memory files. */
static bool populate(struct cgroup2 *cg)
{
	if (!add_files(cg, cgroup2_core_files, cgroup2_nr_core_files))
		return false;
	/* The root has memory.reclaim and memory.stat, whatever it
	 * enables (add_files leaves out the rest there). */
	if (!cg->parent)
		return memory_add(cg);
	for (int id = 0; id < CGROUP2_NR_CONTROLLERS; id++)
		if ((cg->parent->subtree_control & (1u << id)) &&
		    !cgroup2_controllers[id].add_files(cg))
			return false;
	return true;
}

/* nr_descendants - visible directories below memcg. */
static int nr_descendants(struct mem_cgroup *memcg)
{
	struct mem_cgroup *pos;
	int n = -1;  /* not itself */

	memcg_tree_lock();
	for_each_mem_cgroup_tree(pos, memcg)
		n++;
	memcg_tree_unlock();
	return n;
}

/* check_limits - may a child be made under parent? Every ancestor's
 * cgroup.max.descendants and cgroup.max.depth must allow it (Linux:
 * cgroup_check_hierarchy_limits). */
static int check_limits(struct cgroup2 *parent)
{
	int level = 1;

	for (struct cgroup2 *a = parent; a; a = a->parent, level++) {
		if (a->max_descendants != INT_MAX &&
		    nr_descendants(a->memcg) >= a->max_descendants)
			return ctl_error(EAGAIN, "cgroup.max.descendants "
					 "is %d", a->max_descendants);
		if (level > a->max_depth)
			return ctl_error(EAGAIN, "cgroup.max.depth is %d",
					 a->max_depth);
	}
	return 0;
}

static int cgroup2_mkdir(struct ctl_node *dir, const char *name)
{
	struct cgroup2 *parent = cgroup2_of(dir), *cg;
	int ret;

	ret = check_limits(parent);
	if (ret)
		return ret;
	cg = kzalloc(sizeof(*cg), GFP_KERNEL);
	if (!cg)
		return ctl_error(ENOMEM, "no memory for a cgroup");
	cg->parent = parent;
	cg->max_descendants = INT_MAX;
	cg->max_depth = INT_MAX;
	ret = mem_cgroup_create(parent->memcg, name, &cg->memcg);
	if (ret) {
		kfree(cg);
		if (ret == -ENOMEM)
			return ctl_error(ENOMEM, "no memory for a domain");
		return ctl_error(ENOENT, "the parent is being removed");
	}
	memcg_v2_domain_init(cg->memcg);
	/* Its task count, whether pids is enabled or not: the files only
	 * show it (as memory's do the domain's charge). */
	if (pids_cgroup_create(cg->memcg)) {
		mem_cgroup_destroy(cg->memcg);
		kfree(cg);
		return ctl_error(ENOMEM, "no memory for the cgroup's count");
	}
	cg->dir = ctl_create_dir(dir, name, &cgroup2_dir_ops, cg);
	if (!cg->dir || !populate(cg)) {
		if (cg->dir)
			ctl_remove(cg->dir);
		pids_cgroup_remove(cg->memcg);
		mem_cgroup_destroy(cg->memcg);
		kfree(cg);
		return ctl_error(ENOMEM, "no memory for the cgroup's files");
	}
	return 0;
}

static int cgroup2_rmdir(struct ctl_node *dir)
{
	struct cgroup2 *cg = cgroup2_of(dir);
	struct mem_cgroup *memcg = cg->memcg;
	int ret;

	if (!cg->parent)
		return ctl_error(EBUSY, "the root cannot be removed");
	ret = cgroupfs_remove_domain(memcg);
	/* Refused, the domain is still in the tree: ctl_lock keeps it. */
	if (ret == -EBUSY) {
		unsigned int n = READ_ONCE(memcg->nr_tasks);

		return n ? ctl_error(EBUSY, "the cgroup has %u live tasks", n)
			 : ctl_error(EBUSY, "the cgroup has children");
	}
	if (ret)
		return ctl_error(EBUSY, "the root cannot be removed");
	/* The directory and its cgroup2 go now, while the domain may
	 * linger, dying (cgroupfs_remove_domain). */
	ctl_remove(dir);
	kfree(cg);
	return 0;
}

/* --- the root ------------------------------------------------------------- */

/* subdir - the directory name under parent, made if missing. */
static struct ctl_node *subdir(struct ctl_node *parent, const char *name)
{
	struct ctl_node *node;

	if (ctl_lookup(parent, name, &node) == 0)
		return node;
	return ctl_create_dir(parent, name, NULL, NULL);
}

int cgroup2_init(void)
{
	struct ctl_node *fs, *dir;

	if (root_cgroup2.dir)
		return 0;
	fs = subdir(subdir(ctl_root(), "sys"), "fs");
	if (!fs)
		return -ENOMEM;
	/* One hierarchy: every domain's counters are its parent's too. */
	root_mem_cgroup->use_hierarchy = true;
	memcg_v2_domain_init(root_mem_cgroup);
	root_cgroup2.memcg = root_mem_cgroup;
	dir = ctl_create_dir(fs, "cgroup", &cgroup2_dir_ops, &root_cgroup2);
	if (!dir)
		return -ENOMEM;
	root_cgroup2.dir = dir;
	/* Paths of domains (ps, the OOM's lines) start here now. */
	strcpy(root_mem_cgroup->name, "sys/fs/cgroup");
	if (!populate(&root_cgroup2)) {
		ctl_remove(dir);
		root_cgroup2.dir = NULL;
		return -ENOMEM;
	}
	return 0;
}

int cgroup2_get_domain(const char *path, struct mem_cgroup **out)
{
	struct ctl_node *node;
	struct cgroup2 *cg;
	int ret;

	ctl_lock();
	/* Every directory at or below /sys/fs/cgroup is a cgroup. */
	ret = cgroupfs_lookup_dir(path, "/sys/fs/cgroup", &node);
	if (ret == 0) {
		cg = cgroup2_of(node);
		/* No internal processes (Linux: clone3 into such a
		 * cgroup is EBUSY too). */
		if (cg->parent && cg->subtree_control)
			ret = -EBUSY;
	}
	if (ret == 0) {
		*out = cg->memcg;
		mem_cgroup_get(*out);  /* visible: ctl_lock keeps it so */
	}
	ctl_unlock();
	return ret;
}
