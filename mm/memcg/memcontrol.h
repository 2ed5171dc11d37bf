/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcontrol.h - domains (memory cgroups): what they are, how they are
 * made and removed, and how they are charged (Linux 2012:
 * mm/memcg/memcontrol.c, include/linux/memcontrol.h).
 *
 * A domain is a directory under /cgroup. It has two counters, res (user +
 * kernel pages) and kmem (kernel pages only), a set of tasks, and children.
 * Pages are charged to the domain of the task they are allocated for, and
 * the domain is recorded in the page (page->memcg), so that freeing the
 * page uncharges the domain that was charged - wherever the task has gone
 * since.
 *
 * Where things are:
 *   mm/memcg/memcontrol.c   the tree: create, destroy, hierarchy,
 *                     kmem_accounted, limits, tasks entering and leaving,
 *                     references
 *   mm/memcg/memcg_charge.c charging: res through the per-CPU stock, then kmem;
 *                     draining and reclaim before a charge is given up
 *   mm/memcg/res_counter.c  the counters, charged up the tree without a lock
 *   mm/memcg/stock.c        the per-CPU charge stock
 *   mm/memcg/kmem_hooks.c   the page allocator's hooks: charge, cancel,
 *                           uncharge
 *   mm/memcg/memcg_slab.c   `caches`: each domain's child slab caches
 *   mm/memcg/obj_owner.c    `objects`: owner records and byte stocks
 *   mm/memcg/user_memory.c  user pages (rss, cache), reclaim, moving charges
 *   mm/memcg/memcg_oom.c    the domain OOM killer, for user memory only
 *   mm/memcg/memcg_v2.c     cgroup v2: memory.max, memory.high, events, and
 *                     the OOM killer that knows kernel memory
 *   mm/memcg/memcg_protection.c  memory.min and memory.low: what
 *                     reclaim leaves a domain
 *   mm/memcg/memcg_stat.c   memory.stat, and every domain at once for it
 *   mm/memcg/memcg_id.c     domain ids: how many domains there may be
 *   mm/memcg/memcg_check.c  the invariants `check` verifies
 *   mm/memcg/memcg_trace.c  memcg's trace events
 *
 * Locking, outermost first:
 *   ctl_lock (kernel/fs/ctlfs.c: every control-file handler runs under it)
 *   the task table's lock (kernel/task/task_ops.h)
 *   memcg_tree_lock: the tree, each domain's task list, task->memcg,
 *                    task->kmem_payer, limits and flags
 *   user_memory_lock (mm/memcg/user_memory.c): user pages
 *   memcg_list_lock: the list of every domain, dying ones included (taken
 *                    with interrupts off: a domain may be freed from any
 *                    context, when its last kernel page is freed)
 * The res_counters take no lock: each level is charged by a
 * compare-and-swap (mm/memcg/res_counter.c). memcg_tree_lock is never
 * taken with interrupts off, nor from an interrupt handler: its holder
 * may wait for other CPUs (draining stocks).
 */
#ifndef MM_MEMCONTROL_H
#define MM_MEMCONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/base/list.h"
#include "kernel/base/spinlock.h"
#include "kernel/base/platform.h"
#include "mm/gfp.h"
#include "mm/line_transfer.h"
#include "mm/memcg_hooks.h"
#include "mm/memcg/memcg_v2.h"
#include "mm/memcg/res_counter.h"

struct page;
struct task;

#define MEMCG_NAME_MAX 63   /* as CTL_NAME_MAX */
#define MEMCG_PATH_MAX 256  /* as CTL_PATH_MAX */

struct kmem_cache;
struct pids_cgroup;

/* A user charge is retried this many times, reclaiming between tries,
 * before the domain's OOM killer is called (Linux's value). */
#define MEM_CGROUP_RECLAIM_RETRIES 5

/*
 * kmem_accounted: the bits of a domain's kernel-memory accounting state
 * (the 2012 series' names). The domain's kernel allocations are charged
 * if either is set.
 */
enum {
	KMEM_ACCOUNTED_THIS,    /* this domain has a kmem limit */
	KMEM_ACCOUNTED_PARENT,  /* an ancestor has one, with use_hierarchy */
};
#define KMEM_ACCOUNTED_MASK \
	((1ul << KMEM_ACCOUNTED_THIS) | (1ul << KMEM_ACCOUNTED_PARENT))

struct mem_cgroup {
	/* First: what the slab's fast path reads (mm/memcg_hooks.h). Its
	 * kmem_accounted (KMEM_ACCOUNTED_* bits) is written under
	 * memcg_tree_lock; its child caches, by root cache id
	 * (mm/memcg/memcg_slab.c), are made on the domain's first
	 * allocation from each and destroyed when the domain is freed. */
	struct memcg_kmem_view view;

	/* The counters, charged without a lock (mm/memcg/res_counter.c).
	 * With use_hierarchy in the parent (and the parent not the root),
	 * their parents are the parent's counters. */
	struct res_counter res;   /* user + kernel memory */
	struct res_counter kmem;  /* kernel memory only */

	/* References (atomic): the tree (while the domain is visible), each
	 * task in it, each visible or dying child, charges in progress, and
	 * one for each kernel page charged to it - owned by a page or waiting
	 * in a CPU's stock. Those are taken and dropped a batch at a time
	 * (mem_cgroup_get_many), as the charge is. */
	int refcnt;
	struct line_writer refcnt_line;  /* who wrote refcnt last */

	/* Under memcg_tree_lock. */
	bool kmem_account_activated;   /* holds a memcg_kmem_enabled_key
					* reference, until it is freed */
	bool use_hierarchy;            /* children's counters are ours too */
	bool oom_kill_disable;         /* memory.oom_control */
	bool dying;                    /* removed: invisible, waiting for its
					* last kernel page to be freed */
	struct mem_cgroup *parent;     /* NULL for the root */
	struct list_head children;     /* visible children */
	struct list_head sibling;      /* on parent->children */
	struct list_head tasks;        /* its tasks, by task->memcg_node */
	unsigned int nr_tasks;
	/* Its task count (kernel/cgroup/pids.c), from mkdir to rmdir; NULL
	 * in the root, which counts nobody. */
	struct pids_cgroup *pids;

	int under_oom;  /* tasks waiting in this domain's OOM (atomic) */
	unsigned long oom_kill;  /* its tasks the OOM killer chose (atomic) */
	struct memcg_v2 v2;      /* cgroup v2's files (mm/memcg/memcg_v2.h) */

	/* Statistics of the pages it owns itself, in pages; rss and cache
	 * under user_memory_lock, kernel_stack atomic. */
	long nr_rss;
	long nr_cache;
	long nr_kernel_stack;

	struct list_head all_node;     /* on memcg_all_list */
	int id;  /* 1 .. MEM_CGROUP_ID_MAX (mm/memcg/memcg_id.h); the root 0 */
	/* `objects`: its own owner record, which its objects are charged
	 * to (NULL for the root, and in `caches`); and the records that
	 * charge it, its own and those of its removed descendants (under
	 * obj_owner_lock). */
	struct obj_owner *obj_owner;
	struct list_head obj_owners;
	char name[MEMCG_NAME_MAX + 1];

	/* Scratch space for mm/memcg/memcg_check.c and mm/memcg/memcg_stat.c,
	 * under census_lock (mm/memcg/memcg_stat.c). */
	int64_t scan_res, scan_kmem;
	long scan_kmem_pages, scan_user_pages, scan_slab_pages;
	uint64_t scan_slab_bytes;  /* `objects`: its records' live objects */
	long scan_owner_pages;     /* `objects`: pages charged through them */
};

_Static_assert(offsetof(struct mem_cgroup, view) == 0,
	       "mm/memcg_hooks.h reads a domain's view at its address");

extern struct mem_cgroup *root_mem_cgroup;

static inline bool mem_cgroup_is_root(const struct mem_cgroup *memcg)
{
	return memcg == root_mem_cgroup;
}

/* memcg_kmem_is_accounted - are the domain's kernel allocations charged? */
static inline bool memcg_kmem_is_accounted(const struct mem_cgroup *memcg)
{
	return READ_ONCE(memcg->view.kmem_accounted) & KMEM_ACCOUNTED_MASK;
}

/* mem_cgroup_from_res / _from_kmem - the domain of a counter. */
static inline struct mem_cgroup *mem_cgroup_from_res(struct res_counter *c)
{
	return container_of(c, struct mem_cgroup, res);
}

static inline struct mem_cgroup *mem_cgroup_from_kmem(struct res_counter *c)
{
	return container_of(c, struct mem_cgroup, kmem);
}

/* --- references (mm/memcg/memcontrol.c) ----------------------------------- */

/* mem_cgroup_get_many - take nr references: the domain will not be freed
 * until they are dropped. The caller must already hold one, or hold
 * memcg_tree_lock with the domain visible, or have interrupts off with
 * the domain read from the current task (see mm/memcg/kmem_hooks.h).
 * A batch of kernel pages charged takes one per page at once. */
static inline void mem_cgroup_get_many(struct mem_cgroup *memcg,
				       unsigned int nr)
{
	line_write(&memcg->refcnt_line);
	__atomic_add_fetch(&memcg->refcnt, (int)nr, __ATOMIC_RELAXED);
}

static inline void mem_cgroup_get(struct mem_cgroup *memcg)
{
	mem_cgroup_get_many(memcg, 1);
}

/* __mem_cgroup_release - the count reached left <= 0: free the domain
 * (and the ancestors whose last reference it held). */
void __mem_cgroup_release(struct mem_cgroup *memcg, int left);

/*
 * mem_cgroup_put_many - drop nr references. The last one frees a removed
 * domain: that is when a dying domain's last kernel page is freed. Any
 * context. Panics if the domain still has kernel memory charged (a page
 * would be left pointing at a freed domain).
 */
static inline void mem_cgroup_put_many(struct mem_cgroup *memcg,
				       unsigned int nr)
{
	int left;

	line_write(&memcg->refcnt_line);  /* before: after, it may be gone */
	left = __atomic_sub_fetch(&memcg->refcnt, (int)nr, __ATOMIC_ACQ_REL);
	if (unlikely(left <= 0))
		__mem_cgroup_release(memcg, left);
}

static inline void mem_cgroup_put(struct mem_cgroup *memcg)
{
	mem_cgroup_put_many(memcg, 1);
}

/*
 * mem_cgroup_from_task_get - the domain of task, with a reference.
 * @task: current, or a task that cannot change domain meanwhile
 *
 * A task may be moved by another CPU at any time; the reference keeps the
 * domain it was in alive. NULL task, or one not yet in a domain: the root.
 */
struct mem_cgroup *mem_cgroup_from_task_get(struct task *task);

/* --- the tree (mm/memcg/memcontrol.c) ------------------------------------- */

void memcg_tree_lock(void);
void memcg_tree_unlock(void);

/*
 * mem_cgroup_create - make a domain, a child of parent (mkdir).
 * @parent: a visible domain
 * @name:   its name, at most MEMCG_NAME_MAX bytes (the directory's)
 * @out:    the new domain
 *
 * The child inherits use_hierarchy; its counters are children of the
 * parent's if the parent has use_hierarchy (and is not the root); it
 * starts with KMEM_ACCOUNTED_PARENT if its kernel memory counts against
 * an accounted ancestor. Returns 0, -ENOMEM, -ENOSPC if every domain id
 * is taken (mm/memcg/memcg_id.h), or -ENOENT if parent is being removed.
 */
int mem_cgroup_create(struct mem_cgroup *parent, const char *name,
		      struct mem_cgroup **out);

/*
 * mem_cgroup_destroy - remove a domain (rmdir).
 *
 * Returns -EBUSY if it has tasks or children, -EINVAL for the root. Else:
 * the domain leaves the tree, its stocks are drained, its user charges
 * move to the parent (force_empty), and it lingers, dying, until its last
 * kernel page is freed - at once, if it has none. Returns 0.
 */
int mem_cgroup_destroy(struct mem_cgroup *memcg);

/*
 * mem_cgroup_force_empty - memory.force_empty: move the domain's user
 * charges to its parent (to the root if the parent does not have
 * use_hierarchy, as Linux does: the root is never charged).
 *
 * Returns 0, -EINVAL for the root, -EBUSY if it has tasks or children.
 */
int mem_cgroup_force_empty(struct mem_cgroup *memcg);

/*
 * mem_cgroup_resize_limit - memory.limit_in_bytes.
 * @limit: bytes (a page multiple) or RES_COUNTER_MAX
 *
 * A limit below the usage drains the stocks and reclaims cache pages, up
 * to MEM_CGROUP_RECLAIM_RETRIES times. Returns 0, -EINVAL for the root,
 * or -EBUSY if the usage stayed above the limit (which is then
 * unchanged).
 */
int mem_cgroup_resize_limit(struct mem_cgroup *memcg, int64_t limit);

/*
 * memcg_update_kmem_limit - memory.kmem.limit_in_bytes.
 * @limit: bytes (a page multiple) or RES_COUNTER_MAX
 *
 * A limit makes the domain accounted (KMEM_ACCOUNTED_THIS) and, the first
 * time, takes a reference on memcg_kmem_enabled_key; its descendants (with
 * use_hierarchy) get KMEM_ACCOUNTED_PARENT. RES_COUNTER_MAX clears THIS,
 * and PARENT on the descendants left with no accounted ancestor. Returns
 * 0, -EINVAL for the root, -EBUSY if the kmem usage is above @limit.
 */
int memcg_update_kmem_limit(struct mem_cgroup *memcg, int64_t limit);

/*
 * mem_cgroup_set_use_hierarchy - memory.use_hierarchy.
 * Returns 0 (also when unchanged), -EINVAL to change it under a parent
 * that has it, -EBUSY if the domain has children.
 */
int mem_cgroup_set_use_hierarchy(struct mem_cgroup *memcg, bool val);

/*
 * mem_cgroup_set_oom_kill_disable - memory.oom_control. Clearing it wakes
 * the tasks waiting in the domain's OOM (they kill). -EINVAL for the root.
 */
int mem_cgroup_set_oom_kill_disable(struct mem_cgroup *memcg, bool val);

/*
 * mem_cgroup_iter_next - the next domain after pos in a preorder walk of
 * the visible subtree of top (parents before children); NULL at the end.
 * memcg_tree_lock held.
 */
struct mem_cgroup *mem_cgroup_iter_next(struct mem_cgroup *pos,
					struct mem_cgroup *top);

#define for_each_mem_cgroup_tree(pos, top) \
	for (pos = (top); pos; pos = mem_cgroup_iter_next(pos, (top)))

/* parent_mem_cgroup - the domain whose counters are charged with ours (our
 * parent, if it has use_hierarchy and is not the root), or NULL. */
static inline struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg)
{
	return memcg->res.parent ? mem_cgroup_from_res(memcg->res.parent)
				 : NULL;
}

/*
 * mem_cgroup_path - "/cgroup/A/B" into buf (truncated to fit, always
 * NUL-terminated). Works for dying domains too (they keep their parent).
 */
void mem_cgroup_path(struct mem_cgroup *memcg, char *buf, size_t size);

/* Every domain, dying ones included, on memcg_all_list by all_node;
 * memcg_list_lock is taken with interrupts off (spin_lock_irqsave). */
extern struct list_head memcg_all_list;
extern spinlock_t memcg_list_lock;

/* nr_domains / nr_dying_descendants of /cgroup/cgroup.stat: visible
 * domains, the root included, and removed ones still pinned. */
unsigned long mem_cgroup_nr_domains(void);
unsigned long mem_cgroup_nr_dying(void);

/*
 * mem_cgroup_snapshot (mm/memcg/memcg_stat.c) - every domain, dying
 * ones included, each with a reference: an array from kmalloc, *nr
 * entries. NULL (and *nr 0) if out of memory. Give it back with
 * mem_cgroup_snapshot_put().
 */
struct mem_cgroup **mem_cgroup_snapshot(size_t *nr);
void mem_cgroup_snapshot_put(struct mem_cgroup **all, size_t nr);

/* --- tasks entering and leaving (mm/memcg/memcontrol.c) ------------------- */

/*
 * mem_cgroup_attach_task - put a new task (not yet running) in memcg:
 * `run DOMAIN PROGRAM`, and the first tasks at boot (in the root).
 * Also sets up the task's user-memory fields. Returns 0, or -ENOENT if
 * memcg is being removed.
 */
int mem_cgroup_attach_task(struct mem_cgroup *memcg, struct task *task);

/*
 * mem_cgroup_fork_task - put child (not yet running) in the domain of
 * parent (current, forking). If parent has been killed by cgroup.kill or
 * the OOM killer, the child is killed too (task_kill), so that a fork bomb
 * cannot outrun cgroup.kill. Returns 0.
 */
int mem_cgroup_fork_task(struct task *parent, struct task *child);

/*
 * mem_cgroup_move_task - `echo PID > tasks`: move task to domain to. Its
 * existing charges stay where they are (each page remembers its domain).
 * Returns 0, -ESRCH if the task has exited, -ENOENT if to is being
 * removed, -EINVAL for a system task (they stay in the root). Waits for
 * the other CPUs (an IPI): not from interrupt context or with interrupts
 * off.
 */
int mem_cgroup_move_task(struct task *task, struct mem_cgroup *to);

/*
 * mem_cgroup_exit_task - task is exiting: free its user memory, and take it
 * out of its domain (it is then charged nothing more: its memcg becomes the
 * root). Call from the task itself, or once it no longer runs; kernel
 * pages it still has (its stack) stay charged to their domain until freed.
 */
void mem_cgroup_exit_task(struct task *task);

/*
 * mem_cgroup_kill_tasks - cgroup.kill: task_kill() every task of the
 * visible subtree of memcg, system tasks excepted. Returns how many.
 */
int mem_cgroup_kill_tasks(struct mem_cgroup *memcg);

/*
 * mem_cgroup_freeze - cgroup.freeze: freeze (true) or thaw memcg; each
 * cgroup of its subtree is then frozen if it or an ancestor asks
 * (v2.e_freeze), and its tasks are told so (task_set_freezing). Never
 * sleeps: the tasks stop at their own next chance.
 */
void mem_cgroup_freeze(struct mem_cgroup *memcg, bool freeze);

/*
 * mem_cgroup_frozen - cgroup.events' frozen: is memcg frozen, and has
 * every task of its subtree stopped (task_stopped)? An empty frozen
 * cgroup is frozen.
 */
bool mem_cgroup_frozen(struct mem_cgroup *memcg);

/*
 * mem_cgroup_task_path - the path of the domain task is in (for ps),
 * read under memcg_tree_lock so that a concurrent move is safe.
 */
void mem_cgroup_task_path(struct task *task, char *buf, size_t size);

/* --- charging (mm/memcg/memcg_charge.c) ----------------------------------- */

/*
 * mem_cgroup_try_charge - charge nr_pages to memcg's res counter (and,
 * through it, its ancestors'), through this CPU's stock.
 * @memcg:      the domain; the root is never charged (returns 0)
 * @gfp:        the allocation's flags: __GFP_ATOMIC callers cannot wait
 *              for other CPUs, so neither drain nor reclaim is tried
 * @nr_pages:   how many pages
 * @over_limit: on failure, set to the domain whose limit refused the
 *              charge (for the OOM killer); may be NULL
 *
 * Served from the stock when it holds enough pages for @memcg; otherwise a
 * batch (CHARGE_BATCH, or exactly @nr_pages if more) is charged and the
 * surplus refills the stock; if the batch does not fit, exactly @nr_pages
 * is tried. On a refusal, the stocks of all CPUs are drained and cache
 * pages of the refusing domain's subtree are reclaimed, and the charge is
 * retried, up to MEM_CGROUP_RECLAIM_RETRIES times while that helps.
 * Never calls the OOM killer. Returns 0 or -ENOMEM.
 */
int mem_cgroup_try_charge(struct mem_cgroup *memcg, gfp_t gfp,
			  unsigned int nr_pages,
			  struct mem_cgroup **over_limit);

/* mem_cgroup_uncharge - give back nr_pages to memcg's res counter. */
void mem_cgroup_uncharge(struct mem_cgroup *memcg, unsigned int nr_pages);

/*
 * The references of kernel charge - the one rule, whoever charges:
 *
 *   Each page of kernel charge holds one reference on its domain,
 *   wherever the charge is: in a page (PG_kmemcg) or in a CPU's stock.
 *   Charge taken from a stock brings its references with it, and charge
 *   given back to a stock keeps them. Whoever charges the counters takes
 *   the references first - they keep the domain alive through a charge
 *   that may wait - and drops them if the charge is refused; whoever
 *   gives charge back to the counters drops them, last (the last one may
 *   free a removed domain).
 *
 * So a removed domain lingers, dying, until its last kernel page is
 * freed, and no page or stock ever names a freed domain.
 */

/*
 * memcg_charge_kmem - charge a kernel allocation of nr_pages to res and
 * kmem: from this CPU's stock if it can, else from the counters
 * (memcg_charge_kmem_counters), with nr_pages references, one per page,
 * which memcg_uncharge_kmem gives back. Returns 0 or -ENOMEM; never
 * OOM-kills.
 */
int memcg_charge_kmem(struct mem_cgroup *memcg, gfp_t gfp,
		      unsigned int nr_pages);

/*
 * memcg_charge_kmem_counters - the counters' part of memcg_charge_kmem,
 * for a caller that already looked at the stock: a batch for both
 * counters with the surplus stocked (with its references), or else
 * exactly nr_pages (res first; if kmem refuses, res is given back). The
 * caller has taken the nr_pages references the pages will hold (and they
 * keep memcg alive meanwhile); on failure they are dropped here.
 */
int memcg_charge_kmem_counters(struct mem_cgroup *memcg, gfp_t gfp,
			       unsigned int nr_pages);

/* memcg_uncharge_kmem - give back a kernel allocation of nr_pages, with
 * its references: to this CPU's stock if it caches memcg and has room,
 * else to the counters (memcg_uncharge_kmem_counters: kmem, res, then the
 * references; the last reference may free a dying domain). */
void memcg_uncharge_kmem(struct mem_cgroup *memcg, unsigned int nr_pages);
void memcg_uncharge_kmem_counters(struct mem_cgroup *memcg,
				  unsigned int nr_pages);

/*
 * memcg_account_kernel_stack - fork and exit report a kernel stack (Linux:
 * account_kernel_stack), for memory.stat's kernel_stack.
 * @stack:   the stack's first page, after alloc_pages / before freeing
 * @account: +1 for a new stack, -1 for one about to be freed
 */
void memcg_account_kernel_stack(struct page *stack, int account);

#endif
