/* SPDX-License-Identifier: MIT */
/*
 * kernel/cgroup/pids.h - the pids controller: how many tasks a domain and
 * its descendants may hold (Linux: kernel/cgroup/pids.c, since 4.3).
 *
 * Every domain but the root has a struct pids_cgroup: a count of the tasks
 * in its subtree (pids.current), a limit (pids.max), a high-water mark
 * (pids.peak) and the refusals its limit made (pids.events). A fork counts
 * one task in the child's domain and in every ancestor below the root,
 * all levels or none: if one level would pass its limit, nothing is
 * counted and the fork fails with EAGAIN. The task keeps its count until
 * it is reaped, so zombies count, as in Linux. Moving a task moves its
 * count, without looking at any limit (Linux's pids_can_attach).
 *
 * The fork path reaches this file through struct cgroup_fork_ops
 * (kernel/sched/fork.h), registered at boot; the control files are in
 * kernel/cgroup/pids_files.c.
 *
 * Locking: pids_lock (a spinlock of this file) guards every count, limit,
 * event counter and reference, and task->pids. It nests inside
 * memcg_tree_lock, which guards memcg->pids and task->memcg.
 */
#ifndef KERNEL_CGROUP_PIDS_H
#define KERNEL_CGROUP_PIDS_H

#include <stddef.h>

#include "kernel/base/list.h"

struct cgroup_fork_ops;
struct mem_cgroup;
struct task;

/* pids.max takes 0 .. PIDS_MAX - 1, or "max", stored as PIDS_MAX (Linux:
 * PID_MAX_LIMIT + 1, the most PIDs a 64-bit Linux can give out, plus
 * one). */
#define PIDS_MAX 4194305L

struct pids_cgroup {
	/* The parent domain's, or NULL under the root: the root counts
	 * nobody, as in Linux. Each child holds a reference on it. */
	struct pids_cgroup *parent;
	long counter;       /* pids.current: tasks in the subtree */
	long limit;         /* pids.max; PIDS_MAX means "max" */
	long peak;          /* pids.peak: the highest counter seen */
	long events;        /* pids.events max: refusals by the limit of this
			     * domain or of a descendant */
	long events_local;  /* pids.events.local max: by this limit */
	long forkfail;      /* forks from this domain refused, any limit:
			     * the first prints the "fork rejected" line */
	/* References: its domain's directory (until rmdir), each task it
	 * counts (task->pids), each child. The last one frees it. */
	int refcnt;
	/* Its domain, for the path in the "fork rejected" line; NULL once
	 * the directory is removed. */
	struct mem_cgroup *memcg;
	struct list_head all_node;  /* on the list of every count */
	long scan;                  /* pids_check's census */
};

/* What the pids files print: a copy, taken under the lock. */
struct pids_stat {
	long counter;     /* pids.current */
	long max;
	long peak;
	long events;
	long events_local;
};

/* The fork hooks (kernel/sched/fork.h), registered at boot. */
extern const struct cgroup_fork_ops pids_fork_ops;

/*
 * pids_cgroup_create - mkdir: give the new domain memcg its count, a child
 * of its parent's (none under the root). Call before the domain can take
 * tasks. Returns 0 or -ENOMEM.
 */
int pids_cgroup_create(struct mem_cgroup *memcg);

/*
 * pids_cgroup_remove - rmdir: the domain is gone from the tree. Its count
 * lives on while zombies counted in it are not yet reaped; forks and `run`
 * into the removed domain (which fail anyway) count nothing.
 */
void pids_cgroup_remove(struct mem_cgroup *memcg);

/*
 * pids_task_moved - a task was moved to another domain (the tasks file,
 * cgroup.procs): move its count to its new domain and every ancestor,
 * whatever their limits (Linux does the same: a move never fails on
 * pids.max). Nothing for a task that is exiting: its count stays where
 * it lived until it is reaped.
 */
void pids_task_moved(struct task *task);

/* pids_task_domain - the domain task is counted in (a zombie's is the
 * one it died in), or NULL: none, or it has been removed. Called with
 * memcg_tree_lock held, which keeps the domain so. */
struct mem_cgroup *pids_task_domain(struct task *task);

/* pids_set_max - pids.max: limit in 0 .. PIDS_MAX (PIDS_MAX: "max").
 * A limit below pids.current is allowed: only new forks are refused.
 * -ENOENT if the domain has no count (the root). */
int pids_set_max(struct mem_cgroup *memcg, long limit);

/* pids_read - the figures of memcg's files; -ENOENT for the root. */
int pids_read(struct mem_cgroup *memcg, struct pids_stat *out);

/*
 * pids_reset - cgroup v2: the parent turned pids off for memcg, whose
 * files go. Its limit goes with them and its events and peak start again,
 * as Linux's new css would if pids were turned on again; the count stays:
 * the tasks are still there, and the ancestors still count them.
 */
void pids_reset(struct mem_cgroup *memcg);

/*
 * pids_check - the invariant `check` verifies: every count equals the
 * number of tasks not yet reaped that it holds, in its own domain or
 * below, and every reference is accounted for. Appends one line per
 * broken count to buf (NUL-terminated, at most size bytes); returns how
 * many were broken.
 */
int pids_check(char *buf, size_t size);

#endif
