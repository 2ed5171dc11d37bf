// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_v2.c - cgroup v2's memory controller: the boot option,
 * memory.events, memory.max, memory.high, and the OOM killer that knows
 * kernel memory (Linux: try_charge_memcg's OOM step, memory_max_write,
 * memory_high_write, mem_cgroup_handle_over_high in mm/memcontrol.c). See
 * mm/memcg/memcg_v2.h.
 *
 * Nothing here is on the charge path's common case. A kernel charge
 * reaches memcg_v2_charge_refused only once the counters, the stocks and
 * reclaim have all said no (mm/memcg/memcg_charge.c); v1 leaves it at
 * once, and the allocation fails as in 2012.
 */
#include "mm/memcg/memcg_v2.h"

#include <string.h>

#include "kernel/lib/cmdline.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "kernel/time/time.h"
#include "mm/memcg/memcg_oom.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"
#include "mm/memcg/user_memory.h"
#include "mm/page.h"
#include <limits.h>
#include "mm/buddy.h"

bool cgroup_v2;

const char *const memcg_v2_event_names[MEMCG_NR_EVENTS] = {
	"low", "high", "max", "oom", "oom_kill", "oom_group_kill",
};

/* --- the boot option ------------------------------------------------------ */

static char bad_mode[24];  /* a value of cgroup= not understood */

void cgroup_mode_setup(void)
{
	char value[sizeof(bad_mode)];

	bad_mode[0] = '\0';
	if (!cmdline_value("cgroup", value, sizeof(value)))
		return;
	if (!strcmp(value, "v2")) {
		cgroup_v2 = true;
		/* Linux has had only the objects design since 5.9;
		 * slab_accounting=caches, read next, may still ask for
		 * the other. */
		memcg_slab_set_objects(true);
	} else if (strcmp(value, "v1") != 0) {
		strcpy(bad_mode, value);
	}
}

void cgroup_mode_report(void)
{
	if (bad_mode[0])
		printk("cgroup: error: EINVAL: \"%s\" is not v1 or v2; v1 "
		       "kept\n", bad_mode);
	if (cgroup_v2)
		printk("cgroup: v2 (one unified tree at /sys/fs/cgroup)\n");
}

/* --- domains and events --------------------------------------------------- */

void memcg_v2_domain_init(struct mem_cgroup *memcg)
{
	memcg->v2.high = RES_COUNTER_MAX;
	if (!cgroup_v2 || mem_cgroup_is_root(memcg))
		return;
	/* Kernel memory is charged with user memory from the start: the
	 * domain is accounted as if it had a kmem limit, and holds a
	 * reference on the key until it is freed, as such a domain does
	 * (mm/memcg/memcontrol.c: memcg_update_kmem_limit). */
	memcg_tree_lock();
	memcg->kmem_account_activated = true;
	__atomic_or_fetch(&memcg->view.kmem_accounted,
			  1ul << KMEM_ACCOUNTED_THIS, __ATOMIC_RELAXED);
	memcg_tree_unlock();
	static_key_slow_inc(&memcg_kmem_enabled_key);
}

void memcg_v2_event(struct mem_cgroup *memcg, enum memcg_v2_event ev,
		    unsigned long n)
{
	if (!cgroup_v2 || mem_cgroup_is_root(memcg))
		return;
	__atomic_add_fetch(&memcg->v2.events_local[ev], n, __ATOMIC_RELAXED);
	/* Each ancestor below the root (which has no memory.events). */
	for (; memcg && !mem_cgroup_is_root(memcg); memcg = memcg->parent)
		__atomic_add_fetch(&memcg->v2.events[ev], n,
				   __ATOMIC_RELAXED);
}

void memcg_v2_reset_events(struct mem_cgroup *memcg)
{
	for (int ev = 0; ev < MEMCG_NR_EVENTS; ev++) {
		__atomic_store_n(&memcg->v2.events_local[ev], 0,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&memcg->v2.events[ev], 0, __ATOMIC_RELAXED);
	}
}

/* --- memory.max: the OOM step of a kernel charge ------------------------- */

/* over_limit - the first domain from memcg up whose res limit a charge
 * of nr_pages would pass, or NULL if it would fit now. */
static struct mem_cgroup *over_limit(struct mem_cgroup *memcg,
				     unsigned int nr_pages)
{
	int64_t bytes = (int64_t)nr_pages * PAGE_SIZE;

	for (struct res_counter *c = &memcg->res; c; c = c->parent)
		if (res_counter_usage(c) + bytes > READ_ONCE(c->limit))
			return mem_cgroup_from_res(c);
	return NULL;
}

/* may_sleep - can the charging task wait for a victim's memory? Not in
 * interrupt context, with interrupts off, or holding a spinlock. */
static bool may_sleep(gfp_t gfp)
{
	if ((gfp & __GFP_ATOMIC) || in_interrupt())
		return false;
#ifndef TALLY_HOST
	if (preempt_count() || irqs_disabled())
		return false;
#endif
	return true;
}

/* wait_for_memory - sleep until memory is uncharged somewhere, or a few
 * ticks pass (the wake-up of mm/memcg/memcg_oom.h's waiters). */
static void wait_for_memory(void)
{
	__atomic_add_fetch(&memcg_oom_waiters, 1, __ATOMIC_RELAXED);
	oom_wait();
	__atomic_sub_fetch(&memcg_oom_waiters, 1, __ATOMIC_RELAXED);
}

bool memcg_v2_charge_refused(struct mem_cgroup *memcg, gfp_t gfp,
			     unsigned int nr_pages)
{
	struct mem_cgroup *oom;

	if (!cgroup_v2 || !current || !may_sleep(gfp))
		return false;
	/* A task killed (by the OOM or cgroup.kill) gives up: its exit
	 * gives back what it holds. Linux: passed_oom && task_is_dying. */
	if (task_kill_pending(current))
		return false;
	oom = over_limit(memcg, nr_pages);
	if (!oom)
		return true;  /* room was made meanwhile: try again */
	switch (memcg_v2_oom(oom)) {
	case MEMCG_V2_OOM_NOBODY:
		return false;
	case MEMCG_V2_OOM_KILLED:
		if (task_kill_pending(current))
			return false;  /* the victim is the charging task */
		break;
	case MEMCG_V2_OOM_WAIT:
		break;
	}
	wait_for_memory();
	return !task_kill_pending(current);
}

void memcg_v2_set_max(struct mem_cgroup *memcg, int64_t bytes)
{
	int retries = MEM_CGROUP_RECLAIM_RETRIES;
	int64_t excess;

	/* The limit first, so that no charge passes it from now on. */
	__atomic_store_n(&memcg->res.limit, bytes, __ATOMIC_RELAXED);
	for (;;) {
		excess = res_counter_usage(&memcg->res) - bytes;
		if (excess <= 0 || retries-- == 0)
			break;
		drain_all_stock(memcg);
		excess = res_counter_usage(&memcg->res) - bytes;
		if (excess <= 0 ||
		    !user_memory_reclaim(memcg, (unsigned long)
					 ((excess + PAGE_SIZE - 1) /
					  PAGE_SIZE)))
			break;
	}
	if (excess > 0)
		memcg_v2_oom_shrink(memcg, excess);
	memcg_oom_recover(memcg);  /* a raised limit wakes the waiters */
}

/* --- memory.high ---------------------------------------------------------- */

void memcg_v2_set_high(struct mem_cgroup *memcg, int64_t bytes)
{
	int64_t excess;

	WRITE_ONCE(memcg->v2.high, bytes);
	excess = res_counter_usage(&memcg->res) - bytes;
	if (excess <= 0)
		return;
	drain_all_stock(memcg);
	excess = res_counter_usage(&memcg->res) - bytes;
	if (excess > 0)
		user_memory_reclaim(memcg, (unsigned long)
				    ((excess + PAGE_SIZE - 1) / PAGE_SIZE));
}

/* The longest a task sleeps for one throttling (Linux: 2 s). */
#define MEMCG_HIGH_MAX_DELAY_MS 2000
/* Overage is in 1024ths of memory.high. */
#define OVERAGE_UNIT 1024

/* overage - how far above its memory.high memcg is, in OVERAGE_UNITs of
 * it; 0 if not above (or no memory.high). */
static int64_t overage(struct mem_cgroup *memcg)
{
	int64_t high = READ_ONCE(memcg->v2.high);
	int64_t usage = res_counter_usage(&memcg->res);

	if (high == RES_COUNTER_MAX || usage <= high)
		return 0;
	return (usage - high) * OVERAGE_UNIT / (high > PAGE_SIZE ? high
								 : PAGE_SIZE);
}

/*
 * high_penalty_ms - the sleep for an overage: it grows with its square,
 * as Linux's does (10% above costs 40 ms, 50% a second), up to 2 s. As
 * Linux, a penalty under 10 ms is not slept.
 */
static unsigned int high_penalty_ms(int64_t over)
{
	int64_t ms = over * over * 4000 / (OVERAGE_UNIT * OVERAGE_UNIT);

	if (ms < 10)
		return 0;
	return ms > MEMCG_HIGH_MAX_DELAY_MS ? MEMCG_HIGH_MAX_DELAY_MS
					    : (unsigned int)ms;
}

void memcg_v2_throttle(void)
{
	struct mem_cgroup *memcg, *worst = NULL;
	int64_t worst_over = 0;
	unsigned int ms;

	if (!cgroup_v2 || !current || (current->flags & TASK_SYSTEM))
		return;
	memcg = mem_cgroup_from_task_get(current);
	/* Each domain above its memory.high counts high; the one the
	 * furthest above sets the penalty. */
	for (struct mem_cgroup *m = memcg; m && !mem_cgroup_is_root(m);
	     m = m->parent) {
		int64_t over = overage(m);

		if (!over)
			continue;
		memcg_v2_event(m, MEMCG_HIGH, 1);
		if (over > worst_over) {
			worst = m;
			worst_over = over;
		}
	}
	if (worst) {
		user_memory_reclaim(worst, (unsigned long)
				    (worst_over * READ_ONCE(worst->v2.high) /
				     OVERAGE_UNIT / PAGE_SIZE + 1));
		ms = high_penalty_ms(overage(worst));
		if (ms && !task_kill_pending(current))
			msleep(ms);
	}
	mem_cgroup_put(memcg);
}

/*
 * cgroup v2's OOM killer (Linux:
 * mem_cgroup_out_of_memory, oom_badness, mem_cgroup_get_oom_group in
 * mm/oom_kill.c and mm/memcontrol.c).
 *
 * The 2012 design's killer (mm/memcg/memcg_oom.c) is asked only by user
 * charges and scores user pages. v2's is asked by every charge, kernel
 * ones first of all - a fork bomb's stacks - so it scores what a task has
 * charged of both kinds: its user pages and its kernel stack. A fork bomb
 * whose tasks hold nothing else scores all alike; the youngest dies, as
 * in Linux's scan, which keeps the last of equal scores.
 *
 * oom_score_adj moves a score by thousandths of the domain's limit (of
 * the machine's memory when there is none), as Linux's does of the
 * memory the OOM may reclaim; -1000 makes a task immune.
 */

/* The pages every task has charged to the kernel: its stack. */
#define TASK_KERNEL_PAGES (THREAD_SIZE / PAGE_SIZE)

/* limit_pages - what oom_score_adj's thousandths are of. */
static long limit_pages(struct mem_cgroup *oom)
{
	int64_t limit = READ_ONCE(oom->res.limit);

	if (limit == RES_COUNTER_MAX)
		return (long)totalram_pages;
	return (long)(limit / PAGE_SIZE);
}

/* task_charged_pages - what killing task gives back, as far as known:
 * its user pages and its kernel stack. */
static long task_charged_pages(const struct task *task)
{
	return (long)READ_ONCE(task->user_pages) + TASK_KERNEL_PAGES;
}

/*
 * badness - task's score, or LONG_MIN if it may not be killed (a system
 * task, or oom_score_adj -1000). At least 1 for any other: a task whose
 * adjustment takes it below zero is still a candidate, as in Linux.
 */
static long badness(const struct task *task, long limit)
{
	int adj = READ_ONCE(task->oom_score_adj);
	long points;

	if ((task->flags & TASK_SYSTEM) || adj == OOM_SCORE_ADJ_MIN)
		return LONG_MIN;
	points = task_charged_pages(task) + (long)adj * limit / 1000;
	return points > 0 ? points : 1;
}

/*
 * pick_victim - the task of oom's subtree to kill: the highest score,
 * the youngest of equal ones; NULL if none may be. *exiting: a task
 * already killed is still in the subtree (Linux aborts its scan then,
 * and waits for that victim instead of taking a second one).
 * memcg_tree_lock held.
 */
static struct task *pick_victim(struct mem_cgroup *oom, bool *exiting)
{
	long limit = limit_pages(oom), best = LONG_MIN;
	struct task *victim = NULL, *task;
	struct mem_cgroup *pos;

	*exiting = false;
	for_each_mem_cgroup_tree(pos, oom) {
		list_for_each_entry(task, &pos->tasks, memcg_node) {
			long points = badness(task, limit);

			if (points == LONG_MIN)
				continue;
			if (task_kill_pending(task)) {
				*exiting = true;
				continue;
			}
			if (points > best ||
			    (points == best && task->birth > victim->birth)) {
				victim = task;
				best = points;
			}
		}
	}
	return victim;
}

/* oom_group_of - the highest domain from victim's up to oom that has
 * memory.oom.group set, or NULL. memcg_tree_lock held. */
static struct mem_cgroup *oom_group_of(struct task *victim,
				       struct mem_cgroup *oom)
{
	struct mem_cgroup *group = NULL;

	for (struct mem_cgroup *m = victim->memcg; m; m = m->parent) {
		if (READ_ONCE(m->v2.oom_group))
			group = m;
		if (m == oom)
			break;
	}
	return group;
}

/* kill_one - kill task and count it in its domain. Tree lock held. */
static void kill_one(struct task *task)
{
	task_kill(task);
	memcg_v2_event(task->memcg, MEMCG_OOM_KILL, 1);
}

/* kill_group - every task of group's subtree that may be killed; the
 * pages charged to those that were not killed before. */
static long kill_group(struct mem_cgroup *group)
{
	struct mem_cgroup *pos;
	struct task *task;
	long pages = 0;

	for_each_mem_cgroup_tree(pos, group)
		list_for_each_entry(task, &pos->tasks, memcg_node) {
			if (badness(task, 1) == LONG_MIN)
				continue;
			if (!task_kill_pending(task))
				pages += task_charged_pages(task);
			kill_one(task);
		}
	memcg_v2_event(group, MEMCG_OOM_GROUP_KILL, 1);
	return pages;
}

/*
 * kill_victim - kill victim, which pick_victim chose in oom's subtree,
 * and then its group if a domain from its own up to oom has
 * memory.oom.group set (Linux kills the victim first there too). Returns
 * the pages charged to the tasks killed now; *group_killed says whether
 * a group was. Tree lock held.
 */
static long kill_victim(struct task *victim, struct mem_cgroup *oom,
			bool *group_killed)
{
	struct mem_cgroup *group = oom_group_of(victim, oom);
	long pages = task_charged_pages(victim);

	kill_one(victim);
	*group_killed = group != NULL;
	if (group)
		pages += kill_group(group);
	return pages;
}

/* report - one line per second at most: a bomb is killed by the
 * hundred, and the console would spend its time on them. */
static void report(struct mem_cgroup *oom, int pid, long pages, bool group)
{
	static uint64_t last;
	char path[MEMCG_PATH_MAX];
	uint64_t now = jiffies;

	if (last && now - last < HZ)
		return;
	last = now;
	mem_cgroup_path(oom, path, sizeof(path));
	printk("memcg: %s: out of memory: killed task %d (%ld KiB charged)%s\n",
	       path, pid, pages * (long)(PAGE_SIZE / 1024),
	       group ? " and its group" : "");
}

enum memcg_v2_oom_result memcg_v2_oom(struct mem_cgroup *oom)
{
	struct task *victim;
	bool exiting, group = false;
	long pages = 0;
	int pid = 0;

	memcg_v2_event(oom, MEMCG_OOM, 1);
	memcg_tree_lock();
	victim = pick_victim(oom, &exiting);
	if (!exiting && victim) {
		pid = victim->pid;
		pages = task_charged_pages(victim);
		kill_victim(victim, oom, &group);
	}
	memcg_tree_unlock();
	if (exiting)
		return MEMCG_V2_OOM_WAIT;
	if (!victim)
		return MEMCG_V2_OOM_NOBODY;
	report(oom, pid, pages, group);
	return MEMCG_V2_OOM_KILLED;
}

void memcg_v2_oom_shrink(struct mem_cgroup *oom, int64_t excess)
{
	int64_t freed = 0;

	while (freed < excess) {
		struct task *victim;
		bool exiting, group;

		memcg_v2_event(oom, MEMCG_OOM, 1);
		memcg_tree_lock();
		/* Tasks killed already count as freeing their pages: the
		 * scan skips them and goes on to the next. */
		victim = pick_victim(oom, &exiting);
		if (victim)
			freed += kill_victim(victim, oom, &group) * PAGE_SIZE;
		memcg_tree_unlock();
		if (!victim)
			break;
	}
}
