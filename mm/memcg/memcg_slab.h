/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcg_slab.h - accounted slab caches: one child cache per domain
 * (Linux 2012: memcg_kmem_get_cache, memcg_create_kmem_cache and
 * struct memcg_cache_params, in the "slab accounting for memcg" series).
 *
 * Why. A slab page holds many objects. If slab pages were charged to the
 * domain of whichever task made the cache grow, objects of other domains
 * would land on that page, and the page - charged to the first domain -
 * would live as long as any of them: a removed domain would stay dying
 * because of another domain's objects, and one domain could pin another's
 * memory. So an accounted cache (the root cache) gives each domain its
 * own child cache, whose slabs hold only that domain's objects and are
 * charged to it as whole pages:
 *
 *   kmem_cache_alloc(task_struct, gfp)        a task of /cgroup/A asks
 *     memcg_kmem_get_cache()                  -> "task_struct(A)", made
 *                                                on A's first allocation
 *     cache_grow() -> memcg_slab_alloc_pages() charges A for the slab
 *   kmem_cache_free / kfree                   the object goes back to
 *                                                the child cache
 *
 * A child cache keeps no empty slab: when its last object on a slab is
 * freed, the page goes back and A is uncharged at once. So A's kmem usage
 * is always exactly the slabs its live objects need, and a removed domain
 * whose child caches still hold objects stays dying (its pages hold
 * references on it) until the last object is freed; then the domain is
 * freed, and its child caches with it (memcg_slab_destroy_caches).
 *
 * Which allocations go to a child cache: those from a SLAB_ACCOUNT cache, and
 * those from a kmalloc cache with __GFP_KMEMCG (kmalloc(size, GFP_ACCOUNT)),
 * made by a task of an accounted domain - with the same exceptions as pages
 * (docs/interface.md): not the root, not interrupt context, not system tasks,
 * not __GFP_NOFAIL. Everything else comes from the root cache, whose slabs are
 * never charged.
 */
#ifndef MM_MEMCG_SLAB_H
#define MM_MEMCG_SLAB_H

#include "mm/gfp.h"
#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcontrol.h"
#include "mm/slab.h"

struct page;

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

struct kmem_cache *__memcg_kmem_get_cache(struct kmem_cache *root,
					  gfp_t gfp, struct mem_cgroup **ref);

/*
 * memcg_kmem_get_cache - the cache an allocation from cache should really
 * come from.
 * @cache: the cache kmem_cache_alloc was called with (a root cache)
 * @gfp:   the allocation's flags
 * @ref:   set to the domain of the child cache returned, with a
 *         reference that keeps it (and the child cache) alive until
 *         memcg_kmem_put_cache(); NULL if @cache itself is returned
 *
 * Returns the current task's domain's child cache (made now if needed)
 * for an accounted allocation, @cache for any other, or NULL if a child
 * cache was needed and there is no memory to make one. Inline and behind
 * the static key: free until the first kmem limit is set.
 */
static inline struct kmem_cache *memcg_kmem_get_cache(struct kmem_cache *cache,
						      gfp_t gfp,
						      struct mem_cgroup **ref)
{
	*ref = NULL;
	if (!memcg_kmem_enabled() || cache->memcg_params.id < 0)
		return cache;
	if (!(cache->flags & SLAB_ACCOUNT) && !(gfp & __GFP_KMEMCG))
		return cache;
	return __memcg_kmem_get_cache(cache, gfp, ref);
}

/* memcg_kmem_put_cache - drop the reference memcg_kmem_get_cache took. */
static inline void memcg_kmem_put_cache(struct mem_cgroup *ref)
{
	if (ref)
		mem_cgroup_put(ref);
}

/*
 * memcg_slab_alloc_pages - the pages of a new slab of cache. A child
 * cache's slab is charged to the child cache's domain (res, then kmem;
 * NULL if refused) and recorded in the page (page->memcg), whatever task
 * asks and wherever it has moved; a root cache's slab is charged to
 * nobody (__GFP_KMEMCG is dropped).
 */
struct page *memcg_slab_alloc_pages(struct kmem_cache *cache, gfp_t gfp);

/*
 * memcg_slab_destroy_caches - memcg is being freed (its last reference
 * went: no task, no page): destroy its child caches. Each must be empty -
 * a child cache's objects live on pages charged to the domain - and a
 * non-empty one is a bug that panics, naming the cache.
 */
void memcg_slab_destroy_caches(struct mem_cgroup *memcg);

#endif
