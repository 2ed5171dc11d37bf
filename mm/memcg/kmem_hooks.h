/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/kmem_hooks.h - the three page-allocator hooks of kernel-memory
 * accounting (Linux 2012: memcg_kmem_newpage_charge,
 * memcg_kmem_commit_charge, memcg_kmem_uncharge_pages).
 *
 * alloc_pages() calls, in this order:
 *
 *   struct mem_cgroup *handle;
 *   if (!memcg_kmem_new_page(gfp, &handle, order))
 *           return NULL;                 // the domain is over its limit
 *   page = <take 2^order pages from the buddy allocator>;
 *   memcg_kmem_commit_page(page, handle, order);  // page may be NULL
 *
 * and free_accounted_pages() calls memcg_kmem_free_page(page, order) before
 * giving the pages back.
 *
 * The handle carries the charged domain from new_page to commit_page: the
 * task may be moved to another domain in between, and the page must belong
 * to the domain that was charged.
 *
 * Each wrapper is an inline test of memcg_kmem_enabled() - a static key that
 * is off until the first kmem limit is set - so that the hooks cost nothing
 * (a 5-byte NOP) on a machine that does not use them.
 */
#ifndef MM_KMEM_HOOKS_H
#define MM_KMEM_HOOKS_H

#include "kernel/static_key.h"
#include "mm/gfp.h"
#include "mm/page.h"

struct mem_cgroup;

extern struct static_key memcg_kmem_enabled_key;

static inline bool memcg_kmem_enabled(void)
{
#ifdef CONFIG_MEMCG_KMEM
	return static_branch_unlikely(&memcg_kmem_enabled_key);
#else
	return false;
#endif
}

/* memcg_kmem_current_domain - the domain that pays for a kernel allocation
 * by the current task, with a reference (mem_cgroup_put it); NULL if
 * nobody does: __GFP_NOFAIL, interrupt context, early boot, system tasks,
 * the root, a domain without a kmem limit on or above it. Used by the page
 * hooks and by the slab's child caches (mm/memcg/memcg_slab.c). */
struct mem_cgroup *memcg_kmem_current_domain(gfp_t gfp);
bool __memcg_kmem_new_page(gfp_t gfp, struct mem_cgroup **handle, int order);
void __memcg_kmem_commit_page(struct page *page, struct mem_cgroup *handle,
			      int order);
void __memcg_kmem_free_page(struct page *page, int order);

/*
 * memcg_kmem_new_page - charge 2^order pages to the current task's domain,
 * before they are allocated.
 * @gfp:    the allocation's flags; only __GFP_KMEMCG allocations are charged
 * @handle: set to the charged domain, or NULL if nothing was charged
 * @order:  the allocation's order
 *
 * Returns false if the charge was refused (the allocation must fail), true
 * otherwise.
 */
static inline bool memcg_kmem_new_page(gfp_t gfp, struct mem_cgroup **handle,
				       int order)
{
	*handle = NULL;
	if (!memcg_kmem_enabled() || !(gfp & __GFP_KMEMCG))
		return true;
	return __memcg_kmem_new_page(gfp, handle, order);
}

/*
 * memcg_kmem_commit_page - record the charged domain in the page, or give the
 * charge back if the allocation failed (page == NULL).
 */
static inline void memcg_kmem_commit_page(struct page *page,
					  struct mem_cgroup *handle, int order)
{
	if (handle)
		__memcg_kmem_commit_page(page, handle, order);
}

/* memcg_kmem_free_page - uncharge the page's domain, if the page has one. */
static inline void memcg_kmem_free_page(struct page *page, int order)
{
	if (page->flags & PG_kmemcg)
		__memcg_kmem_free_page(page, order);
}

#endif
