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
 * A child cache keeps no empty slab but its CPU slabs (mm/slab_alloc.c): when
 * its last object on any other slab is freed, the page goes back and A is
 * uncharged at once. So A's kmem usage is the slabs its live objects need,
 * plus at most one partly used slab per CPU and cache; removing A takes
 * the CPU slabs back (memcg_slab_flush), and from then on a removed domain
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

#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg_hooks.h"
#include "mm/slab.h"

/* The hooks the slab allocator calls are declared in mm/memcg_hooks.h. */

/*
 * memcg_slab_flush - memcg is being removed: every CPU gives back its
 * slabs of memcg's child caches, and their empty slabs go back to the
 * buddy allocator, uncharged, so that a removed domain pays only for
 * the slabs of its live objects. Process context, no lock held.
 */
void memcg_slab_flush(struct mem_cgroup *memcg);

/*
 * memcg_slab_destroy_caches - memcg is being freed (its last reference
 * went: no task, no page): destroy its child caches. Each must be empty -
 * a child cache's objects live on pages charged to the domain - and a
 * non-empty one is a bug that panics, naming the cache.
 */
void memcg_slab_destroy_caches(struct mem_cgroup *memcg);

#endif
