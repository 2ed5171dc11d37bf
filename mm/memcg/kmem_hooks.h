/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/kmem_hooks.h - what memcg's own files add to the page
 * allocator's hooks (those are declared for mm/ in mm/memcg_hooks.h and
 * defined in mm/memcg/kmem_hooks.c): who pays with references, for the
 * slab's child caches, and the 2012 pair for callers that charge before
 * they allocate. The whole call tree: mm/memcg/memcg_charge.c.
 */
#ifndef MM_KMEM_HOOKS_H
#define MM_KMEM_HOOKS_H

#include "mm/gfp.h"
#include "mm/memcg_hooks.h"

struct mem_cgroup;
struct page;

/**
 * memcg_kmem_get_payer - who pays for the current task's allocation, with
 * references on it.
 * @gfp:     the allocation's flags
 * @nr_refs: references to take (one per page the caller will charge)
 *
 * Returns NULL if nobody pays (memcg_kmem_payer's root, a domain
 * without a kmem limit). Used by the slab's child caches
 * (mm/memcg/memcg_slab.c).
 */
struct mem_cgroup *memcg_kmem_get_payer(gfp_t gfp, unsigned int nr_refs);

/*
 * memcg_kmem_new_page, memcg_kmem_commit_page - the 2012 pair, for
 * callers that charge before they allocate: the unit tests, and (commit
 * only) the slab's child caches, memcg_slab_alloc_pages. new_page
 * returns false if the charge was refused; *handle is the domain
 * charged, or NULL.
 * commit_page with page NULL gives the charge back.
 */
bool memcg_kmem_new_page(gfp_t gfp, struct mem_cgroup **handle, int order);
void memcg_kmem_commit_page(struct page *page, struct mem_cgroup *handle,
			    int order);

#endif
