// SPDX-License-Identifier: MIT
/*
 * kernel/cgroup/cgroup2_core.c - the cgroup.* files of every v2 directory
 * (Linux: cgroup_base_files[] in kernel/cgroup/cgroup.c), with Linux's
 * formats and errors:
 *
 *   cgroup.controllers      what this directory may enable
 *   cgroup.subtree_control  what it enables: "+memory -pids"
 *   cgroup.procs            its live tasks; write a PID to move one here
 *   cgroup.events           populated 0|1, frozen 0|1 (not in the root)
 *   cgroup.stat             nr_descendants, nr_dying_descendants
 *   cgroup.max.descendants, cgroup.max.depth   "max" or a number
 *   cgroup.freeze           0|1: stop the subtree's tasks (not in the root)
 *   cgroup.kill             write 1: kill the subtree (not in the root)
 *   cgroup.type             "domain" (not in the root)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "kernel/cgroup/cgroup2.h"
#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/lib/memparse.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "mm/memcg/memcontrol.h"

static struct cgroup2 *file_cg(struct ctl_node *file)
{
	return cgroup2_of(file);
}

/* print_mask - controller names of mask, space separated, a newline
 * only if any (Linux: cgroup_print_ss_mask). */
static int print_mask(unsigned int mask, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int id = 0; id < CGROUP2_NR_CONTROLLERS; id++) {
		int n;

		if (!(mask & (1u << id)))
			continue;
		n = snprintf(buf + len, size - len, "%s%s", len ? " " : "",
			     cgroup2_controllers[id].name);
		if (n < 0 || (size_t)n >= size - len)
			return -EINVAL;
		len += n;
	}
	if (len && len + 1 < size) {
		buf[len++] = '\n';
		buf[len] = '\0';
	}
	return (int)len;
}

static int controllers_read(struct ctl_node *file, char *buf, size_t size)
{
	return print_mask(cgroup2_controllers_mask(file_cg(file)), buf, size);
}

static int subtree_control_read(struct ctl_node *file, char *buf,
				size_t size)
{
	return print_mask(file_cg(file)->subtree_control, buf, size);
}

/* controller_id - the controller called name[0..len), or -1. */
static int controller_id(const char *name, size_t len)
{
	for (int id = 0; id < CGROUP2_NR_CONTROLLERS; id++) {
		const char *c = cgroup2_controllers[id].name;

		if (strlen(c) == len && strncmp(c, name, len) == 0)
			return id;
	}
	return -1;
}

static int subtree_control_write(struct ctl_node *file, const char *value)
{
	unsigned int enable = 0, disable = 0;
	const char *p = value;

	/* Tokens "+name" and "-name", split by spaces; the last one for a
	 * controller wins. Parsed whole before anything changes. */
	while (*p) {
		size_t len;
		int id;

		if (*p == ' ') {
			p++;
			continue;
		}
		len = strcspn(p, " ");
		id = (*p == '+' || *p == '-') ? controller_id(p + 1, len - 1)
					      : -1;
		if (id < 0)
			return ctl_error(EINVAL, "'%.*s' is not +NAME or "
					 "-NAME of a controller (memory, "
					 "pids)", (int)len, p);
		if (*p == '+') {
			enable |= 1u << id;
			disable &= ~(1u << id);
		} else {
			disable |= 1u << id;
			enable &= ~(1u << id);
		}
		p += len;
	}
	return cgroup2_set_subtree_control(file_cg(file), enable, disable);
}

static int procs_show(struct ctl_node *file, struct ctl_seq *seq)
{
	return cgroupfs_show_tasks(file_cg(file)->memcg, seq);
}

static int procs_write(struct ctl_node *file, const char *value)
{
	struct cgroup2 *cg = file_cg(file);
	struct task *task;
	long long pid;
	int ret;

	/* Linux: kstrtoint(buf, 0), any failure EINVAL. */
	if (parse_c_int(value, &pid) || pid < 0 || pid > INT32_MAX)
		return ctl_error(EINVAL, "'%s' is not a PID", value);
	if (pid == 0)  /* Linux: the writer, here the shell */
		return ctl_error(EINVAL, "0 is the shell, a system task: it "
				 "stays in the root");
	task = task_get((int)pid);
	if (!task)
		return ctl_error(ESRCH, "no task %lld", pid);
	if (cg->parent && cg->subtree_control) {
		task_put(task);
		return ctl_error(EBUSY, "the cgroup enables controllers for "
				 "its children: no internal processes");
	}
	ret = cgroupfs_move_task(task, cg->memcg);
	task_put(task);
	if (ret == -ENOENT)
		return ctl_error(ENODEV, "the cgroup is being removed");
	return ret;
}

/* populated - a live task anywhere in memcg's subtree? */
static bool populated(struct mem_cgroup *memcg)
{
	struct mem_cgroup *pos;
	bool any = false;

	memcg_tree_lock();
	for_each_mem_cgroup_tree(pos, memcg)
		if (pos->nr_tasks) {
			any = true;
			break;
		}
	memcg_tree_unlock();
	return any;
}

static int events_read(struct ctl_node *file, char *buf, size_t size)
{
	struct mem_cgroup *memcg = file_cg(file)->memcg;

	return snprintf(buf, size, "populated %d\nfrozen %d\n",
			populated(memcg), mem_cgroup_frozen(memcg));
}

/* count_descendants - visible ones under memcg, and dying ones: removed,
 * still pinned by kernel pages, memcg among their ancestors. */
static void count_descendants(struct mem_cgroup *memcg, unsigned long *live,
			      unsigned long *dying)
{
	struct mem_cgroup *pos;
	unsigned long flags;

	*live = 0;
	*dying = 0;
	memcg_tree_lock();
	for_each_mem_cgroup_tree(pos, memcg)
		if (pos != memcg)
			(*live)++;
	memcg_tree_unlock();
	flags = spin_lock_irqsave(&memcg_list_lock);
	list_for_each_entry(pos, &memcg_all_list, all_node) {
		if (!READ_ONCE(pos->dying))
			continue;
		for (struct mem_cgroup *a = pos->parent; a; a = a->parent)
			if (a == memcg) {
				(*dying)++;
				break;
			}
	}
	spin_unlock_irqrestore(&memcg_list_lock, flags);
}

static int stat_read(struct ctl_node *file, char *buf, size_t size)
{
	unsigned long live, dying;

	count_descendants(file_cg(file)->memcg, &live, &dying);
	return snprintf(buf, size, "nr_descendants %lu\n"
			"nr_dying_descendants %lu\n", live, dying);
}

/* --- cgroup.max.descendants, cgroup.max.depth ----------------------------- */

static int *max_field(struct ctl_node *file)
{
	struct cgroup2 *cg = file_cg(file);

	if (strcmp(ctl_name(file), "cgroup.max.depth") == 0)
		return &cg->max_depth;
	return &cg->max_descendants;
}

static int max_read(struct ctl_node *file, char *buf, size_t size)
{
	int v = *max_field(file);

	if (v == INT_MAX)
		return snprintf(buf, size, "max\n");
	return snprintf(buf, size, "%d\n", v);
}

/* parse_c_int_fits - parse_c_int for a value that must fit in an int,
 * with ctl_error's messages: what Linux's kstrtoint(s, 0) refuses. */
static int parse_c_int_fits(const char *value, long long *v)
{
	int ret = parse_c_int(value, v);

	if (ret == -EINVAL)
		return ctl_error(EINVAL, "'%s' is not a number", value);
	if (ret || *v < INT_MIN || *v > INT_MAX)
		return ctl_error(ERANGE, "'%s' does not fit in an int", value);
	return 0;
}

static int max_write(struct ctl_node *file, const char *value)
{
	long long v;
	int ret;

	if (strcmp(value, "max") == 0) {
		*max_field(file) = INT_MAX;
		return 0;
	}
	ret = parse_c_int_fits(value, &v);
	if (ret)
		return ret;
	if (v < 0)
		return ctl_error(ERANGE, "%lld is below 0", v);
	*max_field(file) = (int)v;  /* INT_MAX is max, as in Linux */
	return 0;
}

/* --- cgroup.freeze, cgroup.kill, cgroup.type ------------------------------ */

static int freeze_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "%d\n",
			READ_ONCE(file_cg(file)->memcg->v2.freeze));
}

static int freeze_write(struct ctl_node *file, const char *value)
{
	long long v;
	int ret = parse_c_int_fits(value, &v);

	if (ret)
		return ret;
	if (v != 0 && v != 1)
		return ctl_error(ERANGE, "write 1 to freeze the cgroup's "
				 "tasks, 0 to thaw them");
	/* The tasks stop at their next chance: cgroup.events says frozen
	 * 1 once they all have. */
	mem_cgroup_freeze(file_cg(file)->memcg, v == 1);
	return 0;
}

static int kill_write(struct ctl_node *file, const char *value)
{
	long long v;
	int ret = parse_c_int_fits(value, &v);

	if (ret)
		return ret;
	if (v != 1)
		return ctl_error(ERANGE, "write 1 to kill the cgroup's tasks");
	/* Forks racing with the kill are killed at birth
	 * (mem_cgroup_fork_task), as Linux's CGRP_KILL does. */
	mem_cgroup_kill_tasks(file_cg(file)->memcg);
	return 0;
}

static int type_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "domain\n");
}

static int type_write(struct ctl_node *file, const char *value)
{
	if (strcmp(value, "threaded") == 0)
		return ctl_error(EOPNOTSUPP, "threaded cgroups are not "
				 "offered");
	return ctl_error(EINVAL, "only 'threaded' may be written");
}

static const struct ctl_ops controllers_ops = {.read = controllers_read};
static const struct ctl_ops subtree_control_ops = {
	.read = subtree_control_read,
	.write = subtree_control_write,
};
static const struct ctl_ops procs_ops = {
	.show = procs_show,
	.write = procs_write,
};
static const struct ctl_ops events_ops = {.read = events_read};
static const struct ctl_ops stat_ops = {.read = stat_read};
static const struct ctl_ops max_ops = {.read = max_read, .write = max_write};
static const struct ctl_ops freeze_ops = {
	.read = freeze_read,
	.write = freeze_write,
};
static const struct ctl_ops kill_ops = {.write = kill_write};
static const struct ctl_ops type_ops = {
	.read = type_read,
	.write = type_write,
};

const struct cgroup2_file cgroup2_core_files[] = {
	{"cgroup.type", &type_ops, true},
	{"cgroup.procs", &procs_ops, false},
	{"cgroup.controllers", &controllers_ops, false},
	{"cgroup.subtree_control", &subtree_control_ops, false},
	{"cgroup.events", &events_ops, true},
	{"cgroup.max.descendants", &max_ops, false},
	{"cgroup.max.depth", &max_ops, false},
	{"cgroup.stat", &stat_ops, false},
	{"cgroup.freeze", &freeze_ops, true},
	{"cgroup.kill", &kill_ops, true},
};
const size_t cgroup2_nr_core_files = ARRAY_SIZE(cgroup2_core_files);
