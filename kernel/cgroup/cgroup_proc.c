// SPDX-License-Identifier: MIT
/*
 * kernel/cgroup/cgroup_proc.c - what the cgroup code shows outside its
 * trees, as Linux shows it:
 *
 *   /proc/PID/cgroup              the task's domain, one line per
 *                                 hierarchy: "0::/A/B" with cgroup=v2
 *                                 (the unified hierarchy is number 0);
 *                                 "1:memory,pids:/A/B" with v1 (Linux
 *                                 numbers v1 hierarchies from 1 in mount
 *                                 order, and tally has one, with both
 *                                 controllers). A zombie shows the domain
 *                                 it died in while that still exists.
 *   /sys/kernel/cgroup/features   the optional behaviours, one a line:
 *                                 pids_localevents (pids.events.local)
 */
#include <errno.h>
#include <stdio.h>

#include "kernel/base/initcall.h"
#include "kernel/base/platform.h"
#include "kernel/cgroup/cgroup_path.h"
#include "kernel/cgroup/pids.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/fs/proc.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "mm/memcg/memcg_v2.h"
#include "mm/memcg/memcontrol.h"

static int proc_cgroup_read(struct ctl_node *file, char *buf, size_t size)
{
	int pid = proc_pid_of(file);
	char path[MEMCG_PATH_MAX];
	struct mem_cgroup *memcg;
	struct task *task = task_get(pid);

	if (!task)
		return ctl_error(ENOENT, "no task %d (reaped)", pid);
	memcg_tree_lock();
	memcg = READ_ONCE(task->exiting) ? pids_task_domain(task) : NULL;
	if (!memcg)
		memcg = task->memcg ? task->memcg : root_mem_cgroup;
	cgroup_path(memcg, path, sizeof(path));
	memcg_tree_unlock();
	task_put(task);
	if (cgroup_v2)
		return snprintf(buf, size, "0::%s\n", path);
	return snprintf(buf, size, "1:memory,pids:%s\n", path);
}

static const struct ctl_ops proc_cgroup_ops = {.read = proc_cgroup_read};

static int features_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "pids_localevents\n");
}

static const struct ctl_ops features_ops = {.read = features_read};

/* subdir - the directory name of parent, made if missing. */
static struct ctl_node *subdir(struct ctl_node *parent, const char *name)
{
	struct ctl_node *node;

	if (ctl_lookup(parent, name, &node) == 0)
		return node;
	node = ctl_create_dir(parent, name, NULL, NULL);
	if (!node)
		panic("cgroup: cannot create the directory %s", name);
	return node;
}

static void cgroup_proc_init(void)
{
	struct ctl_node *sys_kernel_cgroup =
		subdir(subdir(subdir(ctl_root(), "sys"), "kernel"), "cgroup");

	proc_pid_add_file("cgroup", &proc_cgroup_ops);
	if (!ctl_create_file(sys_kernel_cgroup, "features", &features_ops,
			     NULL))
		panic("cgroup: cannot create /sys/kernel/cgroup/features");
}
INITCALL(fs, cgroup_proc_init);
