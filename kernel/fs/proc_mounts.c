// SPDX-License-Identifier: MIT
/*
 * kernel/fs/proc_mounts.c - /proc/mounts: the trees of control files,
 * one a line in Linux's format (device, where, type, options, 0 0), so
 * that a tool looking for the cgroup tree finds it: type cgroup at
 * /cgroup, or with cgroup=v2 type cgroup2 at /sys/fs/cgroup.
 */
#include <stdio.h>

#include "kernel/base/initcall.h"
#include "kernel/base/platform.h"
#include "kernel/fs/ctlfs.h"
#include "mm/memcg/memcg_v2.h"

static int mounts_read(struct ctl_node *file, char *buf, size_t size)
{
	const char *cgroup = cgroup_v2
		? "cgroup2 /sys/fs/cgroup cgroup2 "
		  "rw,nosuid,nodev,noexec,relatime 0 0\n"
		: "cgroup /cgroup cgroup rw,relatime,memory,pids 0 0\n";

	return snprintf(buf, size,
			"proc /proc proc rw,nosuid,nodev,noexec,relatime "
			"0 0\n"
			"tmpfs /tmp tmpfs rw,relatime 0 0\n"
			"tracefs /sys/kernel/tracing tracefs rw,relatime "
			"0 0\n%s", cgroup);
}

static const struct ctl_ops mounts_ops = {.read = mounts_read};

static void proc_mounts_init(void)
{
	struct ctl_node *proc;

	if (ctl_lookup(ctl_root(), "/proc", &proc) < 0)
		panic("proc_mounts_init: /proc is missing");
	if (!ctl_create_file(proc, "mounts", &mounts_ops, NULL))
		panic("proc_mounts_init: cannot create /proc/mounts");
}
INITCALL(fs, proc_mounts_init);
