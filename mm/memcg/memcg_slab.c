// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_slab.c - accounted slab caches: each domain's child caches,
 * how they are found, made, charged and destroyed (see mm/memcg/memcg_slab.h;
 * Linux 2012: __memcg_kmem_get_cache, memcg_create_kmem_cache,
 * kmem_cache_destroy_memcg_children).
 *
 * Where a child cache is: memcg->view.slab_caches[root->memcg_params.id]. The
 * slot is read without a lock, by a task that holds a reference on the
 * domain: the domain - and with it its child caches - is freed only when
 * its last reference goes (mm/memcg/memcontrol.c mem_cgroup_free calls
 * memcg_slab_destroy_caches). A slot is filled once, by compare-and-swap:
 * two CPUs making the same child cache at once keep the first one.
 *
 * The child cache is named after its root cache and its domain's path
 * below /cgroup: "task_struct(A)", "tmpfs_inode(A/B)" (Linux: "%s(%d:%s)",
 * with the cgroup's id). It is made for the domain, not charged to it:
 * its struct kmem_cache comes from the unaccounted cache of caches.
 */
#include "mm/memcg/memcg_slab.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/base/spinlock.h"
#include "kernel/task/task.h"
#include "mm/buddy.h"
#include "mm/page.h"

/* The ids in use, one bit each; under cache_ids_lock. */
static uint64_t cache_ids;
static spinlock_t cache_ids_lock = SPINLOCK_INIT;

_Static_assert(MEMCG_CACHES_MAX <= 64, "cache_ids is a 64-bit bitmap");

void memcg_slab_reset(void)
{
	spin_lock_init(&cache_ids_lock);
	cache_ids = 0;
}

int memcg_register_cache(struct kmem_cache *root)
{
	int id = -ENOSPC;

	spin_lock(&cache_ids_lock);
	for (int i = 0; i < MEMCG_CACHES_MAX; i++) {
		if (!(cache_ids & (1ull << i))) {
			cache_ids |= 1ull << i;
			id = i;
			break;
		}
	}
	spin_unlock(&cache_ids_lock);
	if (id < 0)
		return id;
	root->memcg_params.id = id;
	root->memcg_params.when = __GFP_KMEMCG;
	root->memcg_params.always =
		root->flags & SLAB_ACCOUNT ? __GFP_KMEMCG : 0;
	return 0;
}

void memcg_unregister_cache(struct kmem_cache *root)
{
	int id = root->memcg_params.id;
	struct mem_cgroup *memcg;
	unsigned long flags;

	if (id < 0)
		return;
	flags = spin_lock_irqsave(&memcg_list_lock);
	list_for_each_entry(memcg, &memcg_all_list, all_node) {
		struct kmem_cache *child =
			__atomic_exchange_n(&memcg->view.slab_caches[id], NULL,
					    __ATOMIC_ACQ_REL);

		if (!child)
			continue;
		if (READ_ONCE(child->active_objs) != 0)
			panic("kmem_cache_destroy: cache %s: its child cache "
			      "%s still has %lu objects in use (a root cache "
			      "goes only when every domain's copy is empty)",
			      root->name, child->name,
			      READ_ONCE(child->active_objs));
		kmem_cache_destroy(child);
	}
	spin_unlock_irqrestore(&memcg_list_lock, flags);

	spin_lock(&cache_ids_lock);
	cache_ids &= ~(1ull << id);
	spin_unlock(&cache_ids_lock);
	root->memcg_params.id = -1;
	root->memcg_params.when = 0;
	root->memcg_params.always = 0;
}

/*
 * memcg_create_cache - make memcg's child cache of root and put it in its
 * slot; if another CPU got there first, keep that one. Returns the child
 * cache, or NULL if out of memory. The caller holds a reference on memcg.
 */
static struct kmem_cache *memcg_create_cache(struct mem_cgroup *memcg,
					     struct kmem_cache *root)
{
	static const char prefix[] = "/cgroup/";
	char path[MEMCG_PATH_MAX], name[KMEM_CACHE_NAME_MAX];
	struct kmem_cache *child, *old = NULL;
	int id = root->memcg_params.id;

	mem_cgroup_path(memcg, path, sizeof(path));
	/* Cut to fit, as Linux cuts cache names. */
	if (snprintf(name, sizeof(name), "%s(%s)", root->name,
		     strncmp(path, prefix, sizeof(prefix) - 1) == 0
			     ? path + sizeof(prefix) - 1 : path) >=
	    (int)sizeof(name))
		name[sizeof(name) - 2] = ')';
	child = kmem_cache_create_child(root, memcg, name);
	if (!child)
		return NULL;
	if (!__atomic_compare_exchange_n(&memcg->view.slab_caches[id], &old,
					 child, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		kmem_cache_destroy(child);  /* another CPU made it first */
		return old;
	}
	/* A task moved out of a domain being removed may still allocate
	 * in it: the cache is dead from the start (memcg_slab_flush). */
	if (__atomic_load_n(&memcg->dying, __ATOMIC_SEQ_CST))
		__atomic_store_n(&child->memcg_params.dead, true,
				 __ATOMIC_RELEASE);
	return child;
}

struct kmem_cache *__memcg_kmem_get_cache(struct kmem_cache *root,
					  gfp_t gfp, struct mem_cgroup **ref)
{
	/* Who pays is decided as for pages (mm/memcg/kmem_hooks.h). */
	struct mem_cgroup *memcg = memcg_kmem_get_payer(gfp, 1);
	struct kmem_cache *child;

	if (!memcg)
		return root;
	child = __atomic_load_n(&memcg->view.slab_caches[root->memcg_params.id],
				__ATOMIC_ACQUIRE);
	if (!child)
		child = memcg_create_cache(memcg, root);
	if (!child) {
		mem_cgroup_put(memcg);
		return NULL;
	}
	*ref = memcg;
	return child;
}

void memcg_kmem_put_cache(struct mem_cgroup *ref)
{
	mem_cgroup_put(ref);
}

struct page *memcg_slab_alloc_pages(struct kmem_cache *cache, gfp_t gfp)
{
	struct mem_cgroup *memcg = cache->memcg_params.memcg;
	unsigned int order = cache->order;
	struct page *page;

	/* Charging is decided here, per cache, not by the hooks per task. */
	gfp &= ~(__GFP_KMEMCG | __GFP_ZERO);
	if (!memcg)
		return alloc_pages(gfp, order);

	/* The child cache's domain, whoever is asking: res, then kmem. */
	if (memcg_charge_kmem(memcg, gfp, 1u << order) != 0)
		return NULL;
	page = alloc_pages(gfp, order);
	/* The page takes the charge and its references, exactly as a page
	 * charged by the hooks (or, if there was no page, the charge is
	 * given back). */
	memcg_kmem_commit_page(page, memcg, order);
	return page;
}

void memcg_slab_flush(struct mem_cgroup *memcg)
{
	/* memcg->dying is set: a child cache made from now on sees it
	 * (memcg_create_cache), and one made before is in its slot. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (int id = 0; id < MEMCG_CACHES_MAX; id++) {
		struct kmem_cache *child =
			__atomic_load_n(&memcg->view.slab_caches[id],
					__ATOMIC_ACQUIRE);

		if (!child)
			continue;
		/* Dead first: a CPU that takes a slab of it after the
		 * flush gives it back at once (slab_alloc_slow). */
		__atomic_store_n(&child->memcg_params.dead, true,
				 __ATOMIC_RELEASE);
		kmem_cache_shrink(child);
	}
}

void memcg_slab_destroy_caches(struct mem_cgroup *memcg)
{
	char path[MEMCG_PATH_MAX];

	for (int id = 0; id < MEMCG_CACHES_MAX; id++) {
		struct kmem_cache *child = memcg->view.slab_caches[id];

		if (!child)
			continue;
		if (READ_ONCE(child->active_objs) != 0 ||
		    READ_ONCE(child->num_slabs) != 0) {
			mem_cgroup_path(memcg, path, sizeof(path));
			panic("memcg: domain %s freed while its child cache %s "
			      "holds %lu objects in %lu slabs (a child cache's "
			      "slabs are charged to its domain, so the domain "
			      "must outlive them)", path, child->name,
			      READ_ONCE(child->active_objs),
			      READ_ONCE(child->num_slabs));
		}
		memcg->view.slab_caches[id] = NULL;
		kmem_cache_destroy(child);
	}
}
