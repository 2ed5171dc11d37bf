/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg_hooks.h - what the page and slab allocators ask of domain
 * accounting: is it on, who pays, the charged pages' way in and out, and
 * which cache serves an accounted object.
 *
 * Declared here, below mm/memcg/, so that mm/ includes nothing of
 * memcg's: the functions are defined in mm/memcg/kmem_hooks.c,
 * mm/memcg/memcg_slab.c and mm/memcg/memcontrol.c (set_active_memcg),
 * and a domain stays an opaque struct mem_cgroup to mm/. Linux declares
 * the same hooks in include/linux/memcontrol.h for the same reason. The
 * layers are drawn in docs/layout.md.
 */
#ifndef MM_MEMCG_HOOKS_H
#define MM_MEMCG_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/base/static_key.h"
#include "kernel/task/task.h"
#include "mm/gfp.h"
#include "mm/page.h"

struct mem_cgroup;

/* The domain at the top of the tree; what it owns nobody pays for. */
extern struct mem_cgroup *root_mem_cgroup;

/* On from the first kmem limit set anywhere (docs/design.md). */
extern struct static_key memcg_kmem_enabled_key;

/* memcg_kmem_enabled - is kernel memory accounted anywhere? A 5-byte NOP
 * at each caller until the first kmem limit is set. */
static inline bool memcg_kmem_enabled(void)
{
#ifdef CONFIG_MEMCG_KMEM
	return static_branch_unlikely(&memcg_kmem_enabled_key);
#else
	return false;
#endif
}

/*
 * set_active_memcg - until it is set back, the current task's kernel
 * allocations are charged to memcg (NULL: to its own domain again), even
 * if it is a system task. Returns the previous one, to restore. The
 * caller keeps a reference on memcg meanwhile. Used by `run` (the shell
 * allocates a new task's stack and struct on its behalf), the benchmarks
 * and the in-kernel tests. Linux has the same concept (set_active_memcg,
 * 5.10). Defined in mm/memcg/memcontrol.c: it updates task->kmem_payer
 * under the lock that a move to another domain takes.
 */
struct mem_cgroup *set_active_memcg(struct mem_cgroup *memcg);

/*
 * memcg_kmem_payer - who pays for a kernel allocation with gfp by task.
 * Nobody (the root) for one that may not be refused (__GFP_NOFAIL) or
 * that is made in interrupt context (the interrupted task is not the
 * one asking); else the domain set with set_active_memcg, else the
 * task's own (system tasks live in the root: mem_cgroup_move_task moves
 * none of them elsewhere). The kernel asks only once the kmem key is on,
 * when every CPU runs a task; host tests run without one: NULL. The
 * answer may be the root or a domain without a kmem limit: nobody is
 * charged then. The pointer may only be compared; to read the domain,
 * hold interrupts off (a task is moved only after every CPU took an IPI)
 * or a reference. The page hooks, the slab and the tracer ask here. The
 * task's part of the answer is made ahead, each time either domain
 * changes (task_update_payer, memcontrol.c), and kept in
 * task->kmem_payer: the fast paths pay one load for it.
 */
static inline struct mem_cgroup *memcg_kmem_payer(struct task *task,
						  gfp_t gfp)
{
	struct mem_cgroup *memcg;

#ifdef TALLY_HOST
	if (!task)
		return NULL;
#endif
	memcg = READ_ONCE(task->kmem_payer);
	/* The root's tasks, the common case, need no other test. */
	if (memcg != root_mem_cgroup &&
	    unlikely((gfp & __GFP_NOFAIL) || in_interrupt()))
		return root_mem_cgroup;
	return memcg;
}

/*
 * memcg_kmem_payer_is - is memcg, which memcg_kmem_payer(task, gfp)
 * returned for an allocation (not the root), still the task's payer for
 * it? The allocation's flags and context are the same as when it asked:
 * only the task's own part of the answer can have changed since, by a
 * move to another domain. Interrupts off, as memcg_kmem_payer says, to
 * read memcg after a yes.
 */
static inline bool memcg_kmem_payer_is(struct task *task,
				       struct mem_cgroup *memcg)
{
	return READ_ONCE(task->kmem_payer) == memcg;
}

/*
 * The page allocator's three hooks (Linux 2012: memcg_kmem_newpage_charge,
 * memcg_kmem_commit_charge, memcg_kmem_uncharge_pages), which
 * alloc_pages and free_accounted_pages call in this order:
 *
 *   charge (memcg_kmem_charge_pages) -> allocate -> commit, or cancel
 *   uncharge (memcg_kmem_uncharge_pages) -> free
 *
 * A charge is a receipt, taken before the pages are allocated: it names
 * the domain charged, since the task may move to another domain before
 * the pages come, and the pages belong to the domain that paid. Each
 * state has one meaning.
 */
enum kmem_charge_from {
	KMEM_CHARGE_NOBODY,    /* nobody pays: nothing charged, memcg NULL */
	KMEM_CHARGE_STOCK,     /* taken from this CPU's stock */
	KMEM_CHARGE_COUNTERS,  /* charged to the counters */
	KMEM_CHARGE_REFUSED,   /* over a limit: the allocation must fail */
};

struct kmem_charge {
	struct mem_cgroup *memcg;  /* the domain charged, or NULL */
	enum kmem_charge_from from;
};

/*
 * memcg_kmem_charge_pages - charge 2^order pages to memcg, who pays for an
 * allocation with gfp (memcg_kmem_payer, read before and only compared
 * since): from this CPU's stock if it can, else from the counters, which
 * may drain the stocks, reclaim and, in cgroup v2, OOM-kill (not for
 * __GFP_ATOMIC: those steps wait for other CPUs). Returns the receipt:
 * STOCK or COUNTERS (memcg set: the pages hold its references from now
 * on), NOBODY (the task moved meanwhile, or memcg has no kmem limit) or
 * REFUSED.
 */
struct kmem_charge memcg_kmem_charge_pages(gfp_t gfp, unsigned int order,
					   struct mem_cgroup *memcg);

/*
 * memcg_kmem_commit_charge - the new block takes the charge of memcg, the
 * receipt's domain, and its references: its first page records the
 * domain (page->memcg) and says it is charged (PG_kmemcg). NULL (nobody
 * was charged) leaves the block uncharged.
 */
static inline void memcg_kmem_commit_charge(struct page *page,
					    struct mem_cgroup *memcg)
{
	if (memcg) {
		page->memcg = memcg;
		page->flags |= PG_kmemcg;
	}
}

/* memcg_kmem_cancel_charge - no pages came: the charge of memcg, the
 * receipt's domain, if any (NULL: none), goes back to this CPU's stock
 * or to the counters. */
void memcg_kmem_cancel_charge(struct mem_cgroup *memcg, unsigned int order);

/*
 * memcg_kmem_uncharge_pages - a charged block (PG_kmemcg) is about to be
 * freed: its charge goes back to this CPU's stock if that caches its
 * domain and has room, else to the counters, with its references (the
 * last of which may free a removed domain: page->memcg is not read after).
 */
void memcg_kmem_uncharge_pages(struct page *page, unsigned int order);

/*
 * The slab allocator's hooks, defined in mm/memcg/memcg_slab.c: each
 * accounted root cache has a child cache per domain (docs/slab.md).
 */
struct kmem_cache;

/*
 * memcg_slab_reset - forget every root cache id (kmem_cache_init: the
 * allocator starts again with no caches).
 */
void memcg_slab_reset(void);

/*
 * memcg_register_cache - give an accountable root cache its id, the slot
 * of its child caches in every domain's slab_caches[]. Returns 0, or
 * -ENOSPC if MEMCG_CACHES_MAX root caches have ids already.
 */
int memcg_register_cache(struct kmem_cache *root);

/*
 * memcg_unregister_cache - root is being destroyed: destroy its child
 * cache in every domain (each must be empty: panics otherwise) and give
 * back its id.
 */
void memcg_unregister_cache(struct kmem_cache *root);

/*
 * __memcg_kmem_get_cache - the current task's domain's child cache of
 * root (made now if needed) for an accounted allocation, with a reference
 * on the domain in *ref; root itself if nobody pays (*ref NULL); NULL if
 * a child cache was needed and there is no memory to make one.
 * mm/slab_alloc.c calls it only once the kmem key is on and the
 * allocation asks to be accounted.
 */
struct kmem_cache *__memcg_kmem_get_cache(struct kmem_cache *root,
					  gfp_t gfp, struct mem_cgroup **ref);

/* memcg_kmem_put_cache - drop the reference __memcg_kmem_get_cache took
 * (ref is the domain it returned, not NULL). */
void memcg_kmem_put_cache(struct mem_cgroup *ref);

/* Accounted root caches (SLAB_ACCOUNT and the kmalloc caches): each has
 * a slot in every domain's slab_caches[] (mm/memcg/memcg_slab.c). */
#define MEMCG_CACHES_MAX 32

/*
 * struct memcg_kmem_view - the part of a domain that the slab's fast path
 * reads, with interrupts off, to choose the cache an object comes from.
 * It is the first member of struct mem_cgroup (mm/memcg/memcontrol.h):
 * the rest of a domain stays opaque to mm/ (Linux makes all of struct
 * mem_cgroup public instead).
 */
struct memcg_kmem_view {
	struct kmem_cache *slab_caches[MEMCG_CACHES_MAX];  /* child caches,
							    * by root id */
	unsigned long kmem_accounted;  /* KMEM_ACCOUNTED_* bits: charged? */
};

static inline const struct memcg_kmem_view *
memcg_kmem_view(const struct mem_cgroup *memcg)
{
	return (const struct memcg_kmem_view *)memcg;
}

/*
 * memcg_kmem_charges - is memcg, the payer of an accounted allocation
 * (memcg_kmem_payer), charged for it: kmem accounted (never the root)?
 * Interrupts off.
 */
static inline bool memcg_kmem_charges(const struct mem_cgroup *memcg)
{
#ifdef TALLY_HOST
	if (!memcg)
		return false;
#endif
	return READ_ONCE(memcg_kmem_view(memcg)->kmem_accounted);
}

/*
 * memcg_kmem_child_cache - the slab's fast path, interrupts off: memcg's
 * child cache of the root cache with that id, read without a reference
 * (a task is moved to another domain, and the old one may go, only after
 * every CPU has left such a section); NULL if it has none yet.
 */
static inline struct kmem_cache *
memcg_kmem_child_cache(const struct mem_cgroup *memcg, int id)
{
	return __atomic_load_n(&memcg_kmem_view(memcg)->slab_caches[id],
			       __ATOMIC_ACQUIRE);
}

/*
 * memcg_slab_alloc_pages - the pages of a new slab of cache. A child
 * cache's slab is charged to the child cache's domain (res, then kmem;
 * NULL if refused) and recorded in the page (page->memcg), whatever task
 * asks and wherever it has moved; a root cache's slab is charged to
 * nobody (__GFP_KMEMCG is dropped).
 */
struct page *memcg_slab_alloc_pages(struct kmem_cache *cache, gfp_t gfp);

/* --- the `objects` design (mm/memcg/obj_owner.h, docs/slab.md) ----------- */

/*
 * slab_accounting=caches|objects on the kernel command line chooses how
 * accounted slab objects are charged: `caches` (the default, the 2012
 * design above: a child cache per domain, charged by the page) or
 * `objects` (Linux 5.9: the root caches' slabs are shared, and each
 * object is charged by the byte to its domain's owner record). The key
 * is on in `objects`, set once, before the slab allocator starts
 * (slab_accounting_setup).
 */
extern struct static_key memcg_slab_objects_key;

static inline bool memcg_slab_objects(void)
{
#ifdef CONFIG_MEMCG_KMEM
	return static_branch_unlikely(&memcg_slab_objects_key);
#else
	return false;
#endif
}

/* slab_accounting_setup - read slab_accounting= (mm_init, before
 * kmem_cache_init: the design decides the slab layout); nothing is
 * printed yet (the banner comes first). slab_accounting_report - print
 * the design chosen, and any bad value: once, after the banner. */
void slab_accounting_setup(void);
void slab_accounting_report(void);

/* cgroup_mode_setup - read cgroup=v1|v2 (mm_init, before
 * slab_accounting_setup: v2 makes `objects` the default design, which
 * slab_accounting= may still change). cgroup_mode_report - say which
 * after the banner; a value that is neither is reported, v1 kept.
 * Both in mm/memcg/memcg_v2.c. */
void cgroup_mode_setup(void);
void cgroup_mode_report(void);

/* memcg_slab_set_objects - switch the design (host tests, before
 * kmem_cache_init, with no domain but the root). */
void memcg_slab_set_objects(bool on);

/*
 * The slab keeps, beside each object, the id of the owner record it is
 * charged to (0: none), and knows nothing else of the record: 2 bytes an
 * object where Linux keeps a pointer (page->obj_cgroups). Ids run from 1
 * to OBJ_OWNER_MAX - 1, one per live record (mm/memcg/obj_owner.c).
 */
#define OBJ_OWNER_MAX 65536

/*
 * memcg_slab_charge - `objects`: charge bytes, an object's, to the owner
 * record of whoever pays for an allocation with gfp (memcg_kmem_payer),
 * before the object is taken (Linux: obj_cgroup_charge). Returns the id
 * of the record charged, 0 if nobody pays, or -ENOMEM if the charge was
 * refused. May reclaim.
 */
int memcg_slab_charge(gfp_t gfp, unsigned int bytes);

/*
 * memcg_slab_uncharge - `objects`: bytes charged to the record owner_id
 * come back - an object freed, or an allocation that found no object
 * after its charge (Linux: obj_cgroup_uncharge). Any context, no slab
 * lock held.
 */
void memcg_slab_uncharge(uint16_t owner_id, unsigned int bytes);

/*
 * slab_owner_walk - for `check` and memory.stat: call fn(owner_id,
 * bytes, arg) for each object with an owner in every cache's slabs,
 * each cache's lock held meanwhile (mm/slab_check.c).
 */
void slab_owner_walk(void (*fn)(uint16_t owner_id, unsigned int bytes,
				void *arg), void *arg);

#endif
