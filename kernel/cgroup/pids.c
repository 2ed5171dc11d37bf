// SPDX-License-Identifier: MIT
/*
 * kernel/cgroup/pids.c - the pids controller (see kernel/cgroup/pids.h).
 *
 * A fork, from top to bottom:
 *
 *   task_fork / spawn (kernel/sched/fork.c)
 *     pids_can_fork       the child's domain: pids_try_charge one task at
 *                         every level, or none if one is at its limit:
 *                         count the refusal, -EAGAIN - before the stack
 *                         is allocated
 *     task_create         stack, struct task (task->pids = the count), PID
 *     pids_post_fork      the count follows the child's domain
 *   ...
 *   task_release (kernel/sched/task_table.c), when the task is reaped
 *     pids_release        uncharge every level, drop the reference
 *
 * The counts are plain longs under pids_lock: a fork counts a handful of
 * levels, and one lock keeps "all levels or none" easy to see. Linux uses
 * an atomic per level and undoes the levels it passed on a refusal; the
 * outcome is the same.
 */
#include "kernel/cgroup/pids.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/base/initcall.h"
#include "kernel/base/list.h"
#include "kernel/base/platform.h"
#include "kernel/base/spinlock.h"
#include "kernel/cgroup/cgroup_path.h"
#include "kernel/sched/fork.h"
#include "kernel/sched/task_table.h"
#include "kernel/task/task.h"
#include "mm/memcg/memcontrol.h"
#include "mm/slab.h"

static spinlock_t pids_lock = SPINLOCK_INIT;

/* Every struct pids_cgroup, removed ones included, for pids_check. */
static LIST_HEAD(pids_all);

/* --- references (pids_lock held) ------------------------------------------ */

static void pids_get(struct pids_cgroup *pids)
{
	pids->refcnt++;
}

/* pids_put - drop a reference; the last one frees the count and drops
 * its reference on the parent's. */
static void pids_put(struct pids_cgroup *pids)
{
	while (pids && --pids->refcnt == 0) {
		struct pids_cgroup *parent = pids->parent;

		if (pids->counter != 0)
			panic("pids: a count freed while it still counts %ld "
			      "tasks (every counted task holds a reference)",
			      pids->counter);
		list_del_init(&pids->all_node);
		kfree(pids);
		pids = parent;
	}
}

/* --- charging (pids_lock held) -------------------------------------------- */

static void pids_charge_one(struct pids_cgroup *pids)
{
	pids->counter++;
	if (pids->counter > pids->peak)
		pids->peak = pids->counter;
}

/* pids_charge - one more task at every level, whatever the limits (a
 * move). */
static void pids_charge(struct pids_cgroup *pids)
{
	for (struct pids_cgroup *p = pids; p; p = p->parent)
		pids_charge_one(p);
}

/* pids_uncharge - one task fewer at every level. */
static void pids_uncharge(struct pids_cgroup *pids)
{
	for (struct pids_cgroup *p = pids; p; p = p->parent) {
		if (p->counter <= 0)
			panic("pids: pids.current would go below 0 (%ld): a "
			      "task was uncharged that was never charged",
			      p->counter);
		p->counter--;
	}
}

/*
 * pids_try_charge - one more task at every level, if no level would pass
 * its limit. Returns NULL having charged them all, or the first level
 * (from the bottom) whose limit refused, having charged none.
 */
static struct pids_cgroup *pids_try_charge(struct pids_cgroup *pids)
{
	for (struct pids_cgroup *p = pids; p; p = p->parent)
		if (p->counter + 1 > p->limit)
			return p;
	pids_charge(pids);
	return NULL;
}

/*
 * pids_refused - count a refusal: in the domain whose limit refused
 * (events_local) and there and in every ancestor (events); and in the
 * forking domain, whose first refusal is reported. Returns true for that
 * first one.
 */
static bool pids_refused(struct pids_cgroup *forking,
			 struct pids_cgroup *over)
{
	over->events_local++;
	for (struct pids_cgroup *p = over; p; p = p->parent)
		p->events++;
	return ++forking->forkfail == 1;
}

/* --- the fork hooks (struct cgroup_fork_ops) ------------------------------ */

static int pids_can_fork(struct task *parent, struct mem_cgroup *memcg,
			 struct pids_cgroup **charge)
{
	char path[MEMCG_PATH_MAX];
	struct pids_cgroup *pids, *over = NULL;
	bool first = false;

	memcg_tree_lock();
	if (!memcg)
		memcg = parent->memcg ? parent->memcg : root_mem_cgroup;
	pids = memcg->pids;
	if (pids) {
		spin_lock(&pids_lock);
		over = pids_try_charge(pids);
		if (over)
			first = pids_refused(pids, over);
		else
			pids_get(pids);  /* the child's: task->pids */
		spin_unlock(&pids_lock);
	}
	if (first)
		cgroup_path(memcg, path, sizeof(path));
	memcg_tree_unlock();

	if (first)
		printk("cgroup: fork rejected by pids controller in %s\n",
		       path);
	if (over)
		return -EAGAIN;
	*charge = pids;
	return 0;
}

static void pids_cancel_fork(struct pids_cgroup *charge)
{
	spin_lock(&pids_lock);
	pids_uncharge(charge);
	pids_put(charge);
	spin_unlock(&pids_lock);
}

/* pids_follow - move task's count to its domain's, if that is another.
 * memcg_tree_lock and pids_lock held. */
static void pids_follow(struct task *task)
{
	struct pids_cgroup *from = task->pids, *to;

	if (READ_ONCE(task->reaped) || READ_ONCE(task->exiting))
		return;  /* it stays counted where it lived until reaped */
	to = task->memcg ? task->memcg->pids : NULL;
	if (to == from)
		return;
	if (to) {
		pids_charge(to);
		pids_get(to);
	}
	if (from) {
		pids_uncharge(from);
		pids_put(from);
	}
	task->pids = to;
}

static void pids_post_fork(struct task *child)
{
	memcg_tree_lock();
	spin_lock(&pids_lock);
	pids_follow(child);
	spin_unlock(&pids_lock);
	memcg_tree_unlock();
}

static void pids_release(struct task *task)
{
	struct pids_cgroup *pids;

	spin_lock(&pids_lock);
	pids = task->pids;
	task->pids = NULL;
	if (pids) {
		pids_uncharge(pids);
		pids_put(pids);
	}
	spin_unlock(&pids_lock);
}

const struct cgroup_fork_ops pids_fork_ops = {
	.can_fork = pids_can_fork,
	.cancel_fork = pids_cancel_fork,
	.post_fork = pids_post_fork,
	.release = pids_release,
};

/* Before the first task is made (the fs level runs before any task). */
static void pids_register(void)
{
	cgroup_fork_register(&pids_fork_ops);
}
INITCALL(fs, pids_register);

/* --- domains and tasks ---------------------------------------------------- */

int pids_cgroup_create(struct mem_cgroup *memcg)
{
	struct pids_cgroup *pids = kzalloc(sizeof(*pids), GFP_KERNEL);

	if (!pids)
		return -ENOMEM;
	pids->limit = PIDS_MAX;
	pids->refcnt = 1;  /* the directory's */
	pids->memcg = memcg;
	memcg_tree_lock();
	spin_lock(&pids_lock);
	pids->parent = memcg->parent ? memcg->parent->pids : NULL;
	if (pids->parent)
		pids_get(pids->parent);
	list_add_tail(&pids->all_node, &pids_all);
	spin_unlock(&pids_lock);
	memcg->pids = pids;
	memcg_tree_unlock();
	return 0;
}

void pids_cgroup_remove(struct mem_cgroup *memcg)
{
	struct pids_cgroup *pids;

	memcg_tree_lock();
	pids = memcg->pids;
	memcg->pids = NULL;
	if (pids) {
		spin_lock(&pids_lock);
		pids->memcg = NULL;
		pids_put(pids);
		spin_unlock(&pids_lock);
	}
	memcg_tree_unlock();
}

void pids_task_moved(struct task *task)
{
	memcg_tree_lock();
	spin_lock(&pids_lock);
	pids_follow(task);
	spin_unlock(&pids_lock);
	memcg_tree_unlock();
}

struct mem_cgroup *pids_task_domain(struct task *task)
{
	struct mem_cgroup *memcg;

	spin_lock(&pids_lock);
	memcg = task->pids ? task->pids->memcg : NULL;
	spin_unlock(&pids_lock);
	return memcg;
}

int pids_set_max(struct mem_cgroup *memcg, long limit)
{
	int ret = -ENOENT;

	memcg_tree_lock();
	if (memcg->pids) {
		spin_lock(&pids_lock);
		memcg->pids->limit = limit;
		spin_unlock(&pids_lock);
		ret = 0;
	}
	memcg_tree_unlock();
	return ret;
}

void pids_reset(struct mem_cgroup *memcg)
{
	memcg_tree_lock();
	if (memcg->pids) {
		struct pids_cgroup *pids = memcg->pids;

		spin_lock(&pids_lock);
		pids->limit = PIDS_MAX;
		pids->peak = pids->counter;
		pids->events = pids->events_local = pids->forkfail = 0;
		spin_unlock(&pids_lock);
	}
	memcg_tree_unlock();
}

int pids_read(struct mem_cgroup *memcg, struct pids_stat *out)
{
	struct pids_cgroup *pids;
	int ret = -ENOENT;

	memcg_tree_lock();
	pids = memcg->pids;
	if (pids) {
		spin_lock(&pids_lock);
		out->counter = pids->counter;
		out->max = pids->limit;
		out->peak = pids->peak;
		out->events = pids->events;
		out->events_local = pids->events_local;
		spin_unlock(&pids_lock);
		ret = 0;
	}
	memcg_tree_unlock();
	return ret;
}

/* --- the invariant ------------------------------------------------------- */

int pids_check(char *buf, size_t size)
{
	struct task **tasks;
	struct pids_cgroup *p;
	size_t nr, len = 0;
	int broken = 0;

	if (size)
		buf[0] = '\0';
	tasks = task_snapshot(&nr);
	if (!tasks)
		return 0;  /* no memory to look: nothing seen broken */
	memcg_tree_lock();  /* for the paths */
	spin_lock(&pids_lock);
	list_for_each_entry(p, &pids_all, all_node)
		p->scan = 0;
	/* A task counts until reaped; one reaped since the snapshot was
	 * taken has given its count back (task->pids NULL). */
	for (size_t i = 0; i < nr; i++)
		for (p = tasks[i]->pids; p; p = p->parent)
			p->scan++;
	list_for_each_entry(p, &pids_all, all_node) {
		char path[MEMCG_PATH_MAX] = "(removed)";
		int n;

		if (p->scan == p->counter)
			continue;
		broken++;
		if (p->memcg)
			cgroup_path(p->memcg, path, sizeof(path));
		n = snprintf(buf + len, size - len, "pids %s: pids.current "
			     "%ld, but %ld tasks counted in it\n", path,
			     p->counter, p->scan);
		if (n > 0 && (size_t)n < size - len)
			len += n;
	}
	spin_unlock(&pids_lock);
	memcg_tree_unlock();
	task_snapshot_put(tasks, nr);
	return broken;
}
