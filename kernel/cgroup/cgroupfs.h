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
 * files (with cgroup=v2: /sys/fs/cgroup, kernel/cgroup/cgroup2.c).
 * Called once at boot, after mm_init, before other CPUs use the control
 * tree (a second call does nothing). Returns 0 or -ENOMEM.
 */
int cgroupfs_init(void);

/* cgroupfs_root_path - where the tree is: "/cgroup", or with cgroup=v2
 * "/sys/fs/cgroup" (kernel/cgroup/cgroup2.c). */
const char *cgroupfs_root_path(void);

/*
 * cgroupfs_show_tasks - the PIDs of memcg's live tasks, one a line, in
 * order: tasks and cgroup.procs. Under ctl_lock, as a show handler.
 */
struct ctl_seq;
int cgroupfs_show_tasks(struct mem_cgroup *memcg, struct ctl_seq *seq);

/*
 * cgroupfs_move_task - what writing a PID to tasks or cgroup.procs does
 * once the task is found: move task into memcg, its task count with it.
 * Returns 0; an error already worded (ESRCH: the task has exited;
 * EINVAL: a system task); or -ENOENT, not worded, when memcg is being
 * removed (each tree says so in its own words). The caller keeps its
 * reference to task.
 */
struct task;
int cgroupfs_move_task(struct task *task, struct mem_cgroup *memcg);

/*
 * cgroupfs_remove_domain - what rmdir does to the domain, in either
 * tree: take memcg out of the tree and remove its task count. Returns
 * 0, or mem_cgroup_destroy's error (-EBUSY: it has tasks or children;
 * another: it is the root), and then memcg stays as it was. The caller
 * words the error, and removes the directory.
 */
int cgroupfs_remove_domain(struct mem_cgroup *memcg);

/*
 * cgroupfs_get_domain - the domain whose directory is path (an absolute
 * path: "/cgroup", "/cgroup/A"), with a reference (mem_cgroup_put it).
 * For `run DOMAIN PROGRAM`. Returns 0, -ENOENT (no such directory, or
 * not a domain's), or -ENOTDIR (a file); with cgroup=v2 the path is
 * under /sys/fs/cgroup, and a directory that enables a controller for
 * its children is -EBUSY (no internal processes).
 */
int cgroupfs_get_domain(const char *path, struct mem_cgroup **out);

/*
 * cgroupfs_lookup_dir - the directory path names (absolute), if it is
 * root or below it: for cgroupfs_get_domain and cgroup2_get_domain,
 * under ctl_lock. Returns 0, -ENOENT (no such directory, or not under
 * root), or -ENOTDIR (a file).
 */
struct ctl_node;
int cgroupfs_lookup_dir(const char *path, const char *root,
			struct ctl_node **node);

#endif
