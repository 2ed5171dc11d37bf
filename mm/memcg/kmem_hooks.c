// SPDX-License-Identifier: MIT
/*
 * mm/memcg/kmem_hooks.c - the three page-allocator hooks of kernel-memory
 * accounting (Linux 2012: __memcg_kmem_newpage_charge,
 * __memcg_kmem_commit_charge, __memcg_kmem_uncharge_pages), and the static
 * key that turns them on.
 *
 * alloc_pages() calls memcg_kmem_new_page() before it takes the pages and
 * memcg_kmem_commit_page() after; free_accounted_pages() calls
 * memcg_kmem_free_page(). The inline wrappers in mm/memcg/kmem_hooks.h test the
 * static key and __GFP_KMEMCG; these are the out-of-line parts.
 *
 * The handle is the charged domain, with a reference: new_page takes it,
 * commit_page hands it to the page (or gives the charge back), free_page
 * drops it. The task may be moved to another domain between new_page and
 * commit_page; the page belongs to the domain that was charged, whatever
 * the task's domain is by then.
 */
#include "mm/memcg/kmem_hooks.h"

#include "kernel/task.h"
#include "kernel/trace/trace_events.h"
#include "mm/memcg/memcontrol.h"

/* Off (count 0) until the first domain gets a kmem limit. */
DEFINE_STATIC_KEY_FALSE(memcg_kmem_enabled_key);

struct mem_cgroup *memcg_kmem_current_domain(gfp_t gfp)
{
	struct task *task = current;
	struct mem_cgroup *memcg;
	unsigned long flags;

	/*
	 * Not charged (SPEC 1): __GFP_NOFAIL allocations (they may not
	 * fail, so may not be refused), interrupt context (the interrupted
	 * task is not the one asking), no task yet (early boot) and system
	 * tasks (shell, idle, workers).
	 */
	if (gfp & __GFP_NOFAIL)
		return NULL;
	if (in_interrupt())
		return NULL;
	if (!task || (task->flags & TASK_SYSTEM))
		return NULL;

	/*
	 * The task's domain, and a reference on it for the caller. As in
	 * mem_cgroup_from_task_get(), interrupts are off from reading
	 * task->memcg to taking the reference (mem_cgroup_move_task waits
	 * for that). Nor is the root charged, nor a domain whose kernel
	 * memory is not accounted (no kmem limit on it or above it).
	 */
	flags = local_irq_save();
	memcg = READ_ONCE(task->memcg);
	if (!memcg || mem_cgroup_is_root(memcg) ||
	    !memcg_kmem_is_accounted(memcg)) {
		local_irq_restore(flags);
		return NULL;
	}
	mem_cgroup_get(memcg);
	local_irq_restore(flags);
	return memcg;
}

bool __memcg_kmem_new_page(gfp_t gfp, struct mem_cgroup **handle, int order)
{
	struct mem_cgroup *memcg = memcg_kmem_current_domain(gfp);

	*handle = NULL;
	trace_memcg_kmem_domain(gfp, order, memcg);
	if (!memcg)
		return true;  /* nobody pays: not charged */
	if (memcg_charge_kmem(memcg, gfp, 1u << order) != 0) {
		mem_cgroup_put(memcg);
		return false;  /* over a limit: the allocation fails */
	}
	*handle = memcg;
	return true;
}

void __memcg_kmem_commit_page(struct page *page, struct mem_cgroup *handle,
			      int order)
{
	/* The allocation failed after all: give the charge back. */
	if (!page) {
		trace_memcg_kmem_commit(page, handle, order);
		memcg_uncharge_kmem(handle, 1u << order);
		mem_cgroup_put(handle);
		return;
	}
	/* The page now owns the charge and the handle's reference. */
	page->memcg = handle;
	page->flags |= PG_kmemcg;
	trace_memcg_kmem_commit(page, handle, order);
}

void __memcg_kmem_free_page(struct page *page, int order)
{
	struct mem_cgroup *memcg = page->memcg;

	if (!memcg)
		panic("memcg_kmem_free_page: pfn 0x%lx has PG_kmemcg but no "
		      "domain", (unsigned long)page_to_pfn(page));
	trace_memcg_kmem_uncharge(page, memcg, order);
	page->memcg = NULL;
	page->flags &= ~PG_kmemcg;
	memcg_uncharge_kmem(memcg, 1u << order);
	/* The page's reference: the last one frees a removed domain. */
	mem_cgroup_put(memcg);
}
