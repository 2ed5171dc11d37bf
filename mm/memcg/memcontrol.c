// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcontrol.c - the tree of domains: creating and removing
 * them, the hierarchy, kmem_accounted and its propagation, limits, and
 * tasks entering and leaving (Linux 2012: mm/memcontrol.c, the parts that
 * are not charging; charging is in mm/memcg/memcg_charge.c).
 *
 * Life of a domain:
 *
 *   mkdir      mem_cgroup_create: visible, refcnt 1 (the tree's reference)
 *   ...        tasks come and go (each holds a reference), kernel pages
 *              are charged (each holds one), children are made (each holds
 *              one on its parent)
 *   rmdir      mem_cgroup_destroy: refused while it has tasks or children;
 *              else it leaves the tree (dying), its stocks are drained,
 *              its user charges move to the parent, and the tree's
 *              reference is dropped
 *   last put   mem_cgroup_free: when the last kernel page charged to it is
 *              freed (at once if there is none). Its kmem usage must be 0
 *              by then - anything else is a bug, and panics. Its child
 *              slab caches go with it: their objects were on its pages,
 *              so a domain whose child caches hold objects (a zombie's
 *              struct task, a directory of /tmp) stays dying until the
 *              last of them is freed.
 *
 * Kernel pages cannot be moved to the parent as user pages can (a page of
 * a kernel stack stays where it is, and knows its domain), which is why a
 * removed domain lingers; /cgroup/cgroup.stat counts them as
 * nr_dying_descendants.
 */
#include "mm/memcg/memcontrol.h"

#include <errno.h>
#include <string.h>

#include "kernel/base/spinlock.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "mm/memcg/memcg_id.h"
#include "mm/memcg/memcg_trace.h"
#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcg_oom.h"
#include "mm/memcg/memcg_slab.h"
#include "mm/memcg/obj_owner.h"
#include "mm/slab.h"
#include "mm/memcg/stock.h"
#include "mm/memcg/user_memory.h"

/* --- the root and the lists of domains ----------------------------------- */

/*
 * Every domain, visible or dying, is on memcg_all_list (for `check` and
 * memory.stat), under memcg_list_lock. The root is on it from the start.
 */
static struct mem_cgroup root_memcg;
struct list_head memcg_all_list = {&root_memcg.all_node, &root_memcg.all_node};
spinlock_t memcg_list_lock = SPINLOCK_INIT;

static struct mem_cgroup root_memcg = {
	.res = {.limit = RES_COUNTER_MAX},
	.kmem = {.limit = RES_COUNTER_MAX},
	.refcnt = 1,  /* never dropped: the root is never freed */
	.children = LIST_HEAD_INIT(root_memcg.children),
	.sibling = LIST_HEAD_INIT(root_memcg.sibling),
	.tasks = LIST_HEAD_INIT(root_memcg.tasks),
	.all_node = {&memcg_all_list, &memcg_all_list},
	.obj_owners = LIST_HEAD_INIT(root_memcg.obj_owners),
	.name = "cgroup",
};

struct mem_cgroup *root_mem_cgroup = &root_memcg;

static spinlock_t tree_lock = SPINLOCK_INIT;
static unsigned long nr_domains = 1;  /* the root */
static unsigned long nr_dying;

void memcg_tree_lock(void)
{
	spin_lock(&tree_lock);
}

void memcg_tree_unlock(void)
{
	spin_unlock(&tree_lock);
}

/* memcg_all_add - put a new domain on the list of every domain. */
static void memcg_all_add(struct mem_cgroup *memcg)
{
	unsigned long flags = spin_lock_irqsave(&memcg_list_lock);

	list_add_tail(&memcg->all_node, &memcg_all_list);
	spin_unlock_irqrestore(&memcg_list_lock, flags);
}

unsigned long mem_cgroup_nr_domains(void)
{
	return __atomic_load_n(&nr_domains, __ATOMIC_RELAXED);
}

unsigned long mem_cgroup_nr_dying(void)
{
	return __atomic_load_n(&nr_dying, __ATOMIC_RELAXED);
}

/* --- references ----------------------------------------------------------- */

/*
 * mem_cgroup_free - the last reference is gone. Check that nothing is
 * charged any more, take the domain off the list of domains, give back
 * its static-key reference, and free it. Returns its parent, whose
 * reference the caller drops next.
 */
static struct mem_cgroup *mem_cgroup_free(struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent = memcg->parent;
	char path[MEMCG_PATH_MAX];
	unsigned long flags;

	if (!memcg->dying || memcg == &root_memcg) {
		mem_cgroup_path(memcg, path, sizeof(path));
		panic("memcg: %s: last reference dropped while the domain is "
		      "still in the tree (refcnt must stay >= 1 until rmdir)",
		      path);
	}
	if (res_counter_usage(&memcg->kmem) != 0) {
		mem_cgroup_path(memcg, path, sizeof(path));
		panic("memcg: domain %s freed with kmem usage %lld bytes: a "
		      "removed domain may be freed only when its last kernel "
		      "page is (kmem usage = bytes of the pages it owns)",
		      path, (long long)res_counter_usage(&memcg->kmem));
	}
	if (res_counter_usage(&memcg->res) != 0) {
		mem_cgroup_path(memcg, path, sizeof(path));
		panic("memcg: domain %s freed with res usage %lld bytes: its "
		      "user charges should have moved to the parent and its "
		      "stocks been drained", path,
		      (long long)res_counter_usage(&memcg->res));
	}

	trace_memcg_domain_free(memcg);
	flags = spin_lock_irqsave(&memcg_list_lock);
	list_del_init(&memcg->all_node);
	spin_unlock_irqrestore(&memcg_list_lock, flags);
	__atomic_sub_fetch(&nr_dying, 1, __ATOMIC_RELAXED);

	/* Its child caches are empty by now: their slabs were its pages,
	 * each holding a reference (mm/memcg/memcg_slab.h). */
	memcg_slab_destroy_caches(memcg);
	obj_owner_put(memcg->obj_owner);  /* `objects` (it may live on) */
	memcg_id_free(memcg->id);

	/* Once enabled for a domain, the hooks stay on until it is gone. */
	if (memcg->kmem_account_activated)
		static_key_slow_dec(&memcg_kmem_enabled_key);
	kfree(memcg);
	return parent;
}

void __mem_cgroup_release(struct mem_cgroup *memcg, int left)
{
	/* Freeing a domain drops the reference it held on its parent,
	 * which may free the parent too: a loop, not recursion. */
	for (;;) {
		if (left < 0)
			panic("memcg: %s: reference count below zero",
			      memcg->name);
		memcg = mem_cgroup_free(memcg);
		if (!memcg)
			return;
		line_write(&memcg->refcnt_line);
		left = __atomic_sub_fetch(&memcg->refcnt, 1, __ATOMIC_ACQ_REL);
		if (left > 0)
			return;
	}
}

struct mem_cgroup *mem_cgroup_from_task_get(struct task *task)
{
	struct mem_cgroup *memcg;
	unsigned long flags;

	/*
	 * Interrupts off between reading task->memcg and taking the
	 * reference: mem_cgroup_move_task waits for every CPU to take an
	 * IPI (so, to leave sections like this one) before it drops the
	 * task's reference on the domain it left.
	 */
	flags = local_irq_save();
	memcg = task ? READ_ONCE(task->memcg) : NULL;
	if (!memcg)
		memcg = root_mem_cgroup;
	mem_cgroup_get(memcg);
	local_irq_restore(flags);
	return memcg;
}

/* --- walking and naming --------------------------------------------------- */

struct mem_cgroup *mem_cgroup_iter_next(struct mem_cgroup *pos,
					struct mem_cgroup *top)
{
	if (!list_empty(&pos->children))
		return list_first_entry(&pos->children, struct mem_cgroup,
					sibling);
	/* No children: the next sibling, or the next sibling of the
	 * nearest ancestor that has one - without going above top. */
	while (pos != top) {
		if (pos->sibling.next != &pos->parent->children)
			return list_entry(pos->sibling.next, struct mem_cgroup,
					  sibling);
		pos = pos->parent;
	}
	return NULL;
}

void mem_cgroup_path(struct mem_cgroup *memcg, char *buf, size_t size)
{
	size_t total = 0, pos;
	struct mem_cgroup *m;

	if (size == 0)
		return;
	for (m = memcg; m; m = m->parent)
		total += 1 + strlen(m->name);
	/* Fill from the end: "/cgroup" "/A" "/B"; bytes past size are cut. */
	pos = total;
	for (m = memcg; m; m = m->parent) {
		size_t len = strlen(m->name);

		pos -= len + 1;
		for (size_t i = 0; i <= len; i++) {
			size_t at = pos + i;

			if (at < size - 1)
				buf[at] = i == 0 ? '/' : m->name[i - 1];
		}
	}
	buf[total < size ? total : size - 1] = '\0';
}

/* --- mkdir and rmdir ------------------------------------------------------ */

int mem_cgroup_create(struct mem_cgroup *parent, const char *name,
		      struct mem_cgroup **out)
{
	struct mem_cgroup *memcg;
	bool hierarchical;
	int id = memcg_id_alloc();

	if (id < 0)
		return id;  /* -ENOSPC: as many domains as there are ids */
	memcg = kzalloc(sizeof(*memcg), GFP_KERNEL);
	if (!memcg) {
		memcg_id_free(id);
		return -ENOMEM;
	}
	memcg->id = id;
	strncpy(memcg->name, name, MEMCG_NAME_MAX);
	INIT_LIST_HEAD(&memcg->children);
	INIT_LIST_HEAD(&memcg->sibling);
	INIT_LIST_HEAD(&memcg->tasks);
	INIT_LIST_HEAD(&memcg->all_node);
	INIT_LIST_HEAD(&memcg->obj_owners);
	memcg->refcnt = 1;  /* the tree's reference */
	/* `objects`: its owner record, which holds a reference on it. */
	if (memcg_slab_objects() && obj_owner_create(memcg)) {
		memcg_id_free(id);
		kfree(memcg);
		return -ENOMEM;
	}

	memcg_tree_lock();
	if (parent->dying) {
		memcg_tree_unlock();
		obj_owner_discard(memcg);
		memcg_id_free(id);
		kfree(memcg);
		return -ENOENT;
	}
	/* The root is never charged: its children's counters are the top
	 * of their chains even when the root has use_hierarchy. */
	hierarchical = parent->use_hierarchy && !mem_cgroup_is_root(parent);
	res_counter_init(&memcg->res, hierarchical ? &parent->res : NULL);
	res_counter_init(&memcg->kmem, hierarchical ? &parent->kmem : NULL);
	res_counter_set_domain(&memcg->res, memcg, "res");
	res_counter_set_domain(&memcg->kmem, memcg, "kmem");
	memcg->use_hierarchy = parent->use_hierarchy;
	/* A child of an accounted domain is accounted from the start (the
	 * 2012 series forgot this case). */
	if (hierarchical && memcg_kmem_is_accounted(parent))
		memcg->view.kmem_accounted = 1ul << KMEM_ACCOUNTED_PARENT;
	memcg->parent = parent;
	memcg->v2.e_freeze = parent->v2.e_freeze;  /* born frozen, or not */
	mem_cgroup_get(parent);
	list_add_tail(&memcg->sibling, &parent->children);
	memcg_all_add(memcg);
	__atomic_add_fetch(&nr_domains, 1, __ATOMIC_RELAXED);
	memcg_tree_unlock();

	*out = memcg;
	return 0;
}

int mem_cgroup_destroy(struct mem_cgroup *memcg)
{
	if (mem_cgroup_is_root(memcg))
		return -EINVAL;

	memcg_tree_lock();
	if (!list_empty(&memcg->children) || memcg->nr_tasks) {
		memcg_tree_unlock();
		return -EBUSY;
	}
	/* Dying first, then the drain: see refill_stock(). */
	__atomic_store_n(&memcg->dying, true, __ATOMIC_RELEASE);
	list_del_init(&memcg->sibling);
	__atomic_sub_fetch(&nr_domains, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&nr_dying, 1, __ATOMIC_RELAXED);
	memcg_tree_unlock();
	trace_memcg_domain_dying(memcg);

	/* The CPU slabs of its child caches, before the stocks drain. */
	memcg_slab_flush(memcg);
	drain_all_stock_removed(memcg);
	user_memory_move_parent(memcg);
	obj_owner_reparent(memcg);  /* `objects`: its records, to the parent */
	/* Only kernel pages are left charged: res usage = kmem usage. */
	mem_cgroup_put(memcg);
	return 0;
}

int mem_cgroup_force_empty(struct mem_cgroup *memcg)
{
	if (mem_cgroup_is_root(memcg))
		return -EINVAL;
	memcg_tree_lock();
	if (!list_empty(&memcg->children) || memcg->nr_tasks) {
		memcg_tree_unlock();
		return -EBUSY;
	}
	memcg_tree_unlock();
	drain_all_stock(memcg);
	user_memory_move_parent(memcg);
	return 0;
}

/* --- limits and flags ----------------------------------------------------- */

int mem_cgroup_resize_limit(struct mem_cgroup *memcg, int64_t limit)
{
	int retries = MEM_CGROUP_RECLAIM_RETRIES;
	int ret;

	if (mem_cgroup_is_root(memcg))
		return -EINVAL;
	for (;;) {
		int64_t over;

		ret = res_counter_set_limit(&memcg->res, limit);
		if (ret == 0 || retries-- == 0)
			break;
		/* Above the new limit: stocked pages are the cheapest to give
		 * back, then the subtree's cache pages. */
		drain_all_stock(memcg);
		over = res_counter_usage(&memcg->res) - limit;
		if (over > 0)
			user_memory_reclaim(memcg, (over + PAGE_SIZE - 1) /
							   PAGE_SIZE);
	}
	if (ret == 0)
		memcg_oom_recover(memcg);
	return ret;
}

/*
 * memcg_propagate_kmem - after memcg's kmem_accounted changed: recompute
 * KMEM_ACCOUNTED_PARENT for every domain below it. A domain has PARENT if
 * its parent (with use_hierarchy, not the root) is accounted, by THIS or
 * PARENT. The walk is in preorder, so each parent is right before its
 * children are looked at. memcg_tree_lock held.
 */
static void memcg_propagate_kmem(struct mem_cgroup *memcg)
{
	struct mem_cgroup *pos;

	for (pos = mem_cgroup_iter_next(memcg, memcg); pos;
	     pos = mem_cgroup_iter_next(pos, memcg)) {
		struct mem_cgroup *parent = pos->parent;
		unsigned long bit = 1ul << KMEM_ACCOUNTED_PARENT;

		if (parent_mem_cgroup(pos) && memcg_kmem_is_accounted(parent))
			__atomic_or_fetch(&pos->view.kmem_accounted, bit,
					  __ATOMIC_RELAXED);
		else
			__atomic_and_fetch(&pos->view.kmem_accounted, ~bit,
					   __ATOMIC_RELAXED);
	}
}

int memcg_update_kmem_limit(struct mem_cgroup *memcg, int64_t limit)
{
	unsigned long this = 1ul << KMEM_ACCOUNTED_THIS;
	bool activate = false;
	int ret;

	if (mem_cgroup_is_root(memcg))
		return -EINVAL;
	/*
	 * drain_all_stock() calls every CPU and waits for them, so it never
	 * runs under the tree lock (a CPU spinning on that lock with
	 * interrupts off would never answer): the lock is dropped around it.
	 */
	memcg_tree_lock();
	ret = res_counter_set_limit(&memcg->kmem, limit);
	if (ret == -EBUSY && memcg_stock_pages_subtree(memcg, true)) {
		/* Kernel charge idle in stocks is given back first: only the
		 * pages the subtree really owns make a limit "below usage". */
		memcg_tree_unlock();
		drain_all_stock(memcg);
		memcg_tree_lock();
		ret = res_counter_set_limit(&memcg->kmem, limit);
	}
	if (ret == 0) {
		if (limit != RES_COUNTER_MAX) {
			if (!memcg->kmem_account_activated) {
				memcg->kmem_account_activated = true;
				activate = true;
			}
			__atomic_or_fetch(&memcg->view.kmem_accounted, this,
					  __ATOMIC_RELAXED);
		} else {
			__atomic_and_fetch(&memcg->view.kmem_accounted, ~this,
					   __ATOMIC_RELAXED);
		}
		memcg_propagate_kmem(memcg);
	}
	memcg_tree_unlock();
	/* The hooks serve a stock hit without asking whether the domain is
	 * accounted: a subtree that may have stopped being accounted loses
	 * its stocked kernel charge here (after the unlock, as above). */
	if (ret == 0 && limit == RES_COUNTER_MAX)
		drain_all_stock(memcg);
	/* The first kmem limit of this domain switches the hooks on; the
	 * reference is dropped when the domain is freed. */
	if (activate)
		static_key_slow_inc(&memcg_kmem_enabled_key);
	return ret;
}

int mem_cgroup_set_use_hierarchy(struct mem_cgroup *memcg, bool val)
{
	int ret = 0;

	memcg_tree_lock();
	if (memcg->use_hierarchy == val)
		ret = 0;
	else if (memcg->parent && memcg->parent->use_hierarchy)
		ret = -EINVAL;  /* a subtree with use_hierarchy stays so */
	else if (!list_empty(&memcg->children))
		ret = -EBUSY;   /* the children's counters are linked already */
	else
		memcg->use_hierarchy = val;
	memcg_tree_unlock();
	return ret;
}

int mem_cgroup_set_oom_kill_disable(struct mem_cgroup *memcg, bool val)
{
	if (mem_cgroup_is_root(memcg))
		return -EINVAL;
	WRITE_ONCE(memcg->oom_kill_disable, val);
	if (!val)
		memcg_oom_recover(memcg);
	return 0;
}

/* --- tasks ---------------------------------------------------------------- */

/*
 * task_update_payer - who pays for task's kernel allocations
 * (memcg_kmem_payer): the domain it allocates for, if set, else its own.
 * Called wherever either is written, under memcg_tree_lock: both writers,
 * the task itself (set_active_memcg) and one moving it from another CPU
 * (mem_cgroup_move_task), then see the other's change, and neither can
 * leave an old domain there.
 */
static void task_update_payer(struct task *task)
{
	struct mem_cgroup *active = task->active_memcg;

	WRITE_ONCE(task->kmem_payer, active ? active : task->memcg);
}

struct mem_cgroup *set_active_memcg(struct mem_cgroup *memcg)
{
	struct task *task = current;
	struct mem_cgroup *old;

	memcg_tree_lock();
	old = task->active_memcg;
	WRITE_ONCE(task->active_memcg, memcg);
	task_update_payer(task);
	memcg_tree_unlock();
	return old;
}

/* task_enter - link task into memcg. memcg_tree_lock held. */
static void task_enter(struct task *task, struct mem_cgroup *memcg)
{
	mem_cgroup_get(memcg);  /* the task's reference */
	list_add_tail(&task->memcg_node, &memcg->tasks);
	memcg->nr_tasks++;
	WRITE_ONCE(task->memcg, memcg);
	task_update_payer(task);
	/* Into a frozen cgroup, it stops; out of one, it goes on. */
	task_set_freezing(task, memcg->v2.e_freeze);
}

/* task_in_domain - is task on its domain's list (not exited)? */
static bool task_in_domain(struct task *task)
{
	return task->memcg && !list_empty(&task->memcg_node);
}

int mem_cgroup_attach_task(struct mem_cgroup *memcg, struct task *task)
{
	user_memory_task_init(task);
	memcg_tree_lock();
	if (memcg->dying) {
		memcg_tree_unlock();
		return -ENOENT;
	}
	task_enter(task, memcg);
	memcg_tree_unlock();
	return 0;
}

int mem_cgroup_fork_task(struct task *parent, struct task *child)
{
	struct mem_cgroup *memcg;
	bool killed;

	user_memory_task_init(child);
	memcg_tree_lock();
	/* A task in a domain keeps it visible: not dying. One that has
	 * exited (or never entered one) forks into the root. */
	memcg = parent && task_in_domain(parent) ? parent->memcg
						 : root_mem_cgroup;
	task_enter(child, memcg);
	/* Checked under the lock cgroup.kill holds while it kills: either
	 * the kill sees the child on the list, or the child sees its parent
	 * killed here. */
	killed = parent && task_kill_pending(parent);
	memcg_tree_unlock();
	if (killed && !(child->flags & TASK_SYSTEM))
		task_kill(child);
	return 0;
}

/* sync_nothing - an IPI that does nothing: its completion on every CPU
 * means every CPU has left its interrupts-off sections. */
static void sync_nothing(void *arg)
{
}

int mem_cgroup_move_task(struct task *task, struct mem_cgroup *to)
{
	struct mem_cgroup *from;

	if ((task->flags & TASK_SYSTEM) && !mem_cgroup_is_root(to))
		return -EINVAL;
	memcg_tree_lock();
	if (!task_in_domain(task)) {
		memcg_tree_unlock();
		return -ESRCH;
	}
	if (to->dying) {
		memcg_tree_unlock();
		return -ENOENT;
	}
	from = task->memcg;
	if (from == to) {
		memcg_tree_unlock();
		return 0;
	}
	list_del_init(&task->memcg_node);
	from->nr_tasks--;
	task_enter(task, to);
	memcg_tree_unlock();

	/*
	 * The task may be running on another CPU, in the middle of
	 * mem_cgroup_from_task_get() (or the kmem hook's copy of it) with
	 * the old domain in hand and its reference not yet taken. Those
	 * sections run with interrupts off: once every CPU has taken an
	 * IPI, none is still inside one, and the task's reference on the
	 * old domain can go (a poor man's synchronize_rcu).
	 */
	smp_call_function_all(sync_nothing, NULL);
	mem_cgroup_put(from);
	return 0;
}

void mem_cgroup_exit_task(struct task *task)
{
	struct mem_cgroup *from = NULL;

	user_memory_task_exit(task);
	memcg_tree_lock();
	if (task_in_domain(task)) {
		from = task->memcg;
		list_del_init(&task->memcg_node);
		from->nr_tasks--;
		/* Whatever it still allocates is charged to nobody. */
		WRITE_ONCE(task->memcg, root_mem_cgroup);
		task_update_payer(task);
	}
	memcg_tree_unlock();
	if (from)
		mem_cgroup_put(from);
}

int mem_cgroup_kill_tasks(struct mem_cgroup *memcg)
{
	struct mem_cgroup *pos;
	struct task *task;
	int killed = 0;

	memcg_tree_lock();
	for_each_mem_cgroup_tree(pos, memcg) {
		list_for_each_entry(task, &pos->tasks, memcg_node) {
			if (task->flags & TASK_SYSTEM)
				continue;
			task_kill(task);
			killed++;
		}
	}
	memcg_tree_unlock();
	return killed;
}

void mem_cgroup_freeze(struct mem_cgroup *memcg, bool freeze)
{
	struct mem_cgroup *pos;
	struct task *task;

	memcg_tree_lock();
	memcg->v2.freeze = freeze;
	/* Parents before children: each takes its parent's answer. */
	for_each_mem_cgroup_tree(pos, memcg) {
		pos->v2.e_freeze = pos->v2.freeze ||
				   (pos->parent && pos->parent->v2.e_freeze);
		list_for_each_entry(task, &pos->tasks, memcg_node)
			task_set_freezing(task, pos->v2.e_freeze);
	}
	memcg_tree_unlock();
}

bool mem_cgroup_frozen(struct mem_cgroup *memcg)
{
	struct mem_cgroup *pos;
	struct task *task;
	bool frozen;

	memcg_tree_lock();
	/* Its descendants are frozen with it (e_freeze). */
	frozen = memcg->v2.e_freeze;
	for (pos = memcg; frozen && pos;
	     pos = mem_cgroup_iter_next(pos, memcg))
		list_for_each_entry(task, &pos->tasks, memcg_node)
			if (!task_stopped(task)) {
				frozen = false;
				break;
			}
	memcg_tree_unlock();
	return frozen;
}

void mem_cgroup_task_path(struct task *task, char *buf, size_t size)
{
	memcg_tree_lock();
	mem_cgroup_path(task->memcg ? task->memcg : root_mem_cgroup, buf,
			size);
	memcg_tree_unlock();
}
