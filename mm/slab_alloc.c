// SPDX-License-Identifier: MIT
/*
 * mm/slab_alloc.c - objects in and out of the slab caches: each CPU's
 * own slab of a cache, the allocation and free paths, and kmalloc(),
 * kfree() and ksize() on top of them (Linux: mm/slub.c). The caches and
 * their slabs are mm/slab.c.
 *
 * Each CPU owns one slab of each cache it uses, its CPU slab (Linux's
 * SLUB: struct kmem_cache_cpu, a "frozen" slab). Freezing moves the
 * slab's free objects to the CPU's own list and counts them as in use;
 * from then on that CPU allocates and frees the slab's objects on its
 * list with interrupts off, without the cache lock, writing only its own
 * cache line (c->cpu_slab[cpu]). That is the fast path:
 *
 *   kmem_cache_alloc / kmalloc        slab_alloc: pop this CPU's list
 *   kmem_cache_free / kfree           slab_free: push it, if the object
 *                                     is of this CPU's slab
 *
 * Everything else takes the cache lock: an empty CPU list
 * (slab_alloc_slow: the objects other CPUs freed to the CPU slab, else a
 * partial slab, else a new one, becomes this CPU's), and a free to a
 * slab that is not this CPU's (slab_free_slow: to the slab's own list;
 * a slab no CPU owns moves list as its count says). A CPU keeps its slab
 * when the slab empties, so that an object allocated and freed alone
 * costs no page; it gives it back when the slab runs dry, when the CPU
 * goes idle with it empty (slab_cpu_idle), and when the cache is shrunk
 * or destroyed or its domain removed (an IPI to every CPU that holds
 * one). A slab on the lists whose last object is freed is kept if the
 * cache has no other empty slab, and otherwise goes straight back to the
 * buddy allocator - a domain's child cache keeps none (docs/slab.md: its
 * slabs are charged to the domain, which must not pay for pages it no
 * longer uses). Making a slab a CPU's and giving it back (freeze,
 * unfreeze) are in mm/slab.c.
 *
 * In `objects` (mm/memcg/obj_owner.h) the allocator above knows nothing
 * of accounting: three hooks around it do all of it, as in Linux's SLUB.
 * Before an accounted allocation, memcg_slab_pre_alloc_hook charges the
 * object's bytes to the owner record of whoever pays; after it,
 * memcg_slab_post_alloc_hook writes the record's id beside the object,
 * in its slab's header; as a free begins, memcg_slab_free_hook takes the
 * id off the object, and once the object is back its bytes go back. The
 * charge and its refund are memcg's (memcg_slab_charge,
 * memcg_slab_uncharge); the ids are the slab's.
 *
 * kmalloc() and kfree() are here, not in a file of their own, because
 * they inline the fast paths: those must stay in the file that defines
 * them, together with the out-of-line slow paths they call.
 */
#include "mm/slab_internal.h"

#include <string.h>

#include "mm/memcg_hooks.h"

/* --- objects -------------------------------------------------------------- */

/* alloc_done - what an object gets on its way out: checks, zeroing. */
static inline void *alloc_done(struct kmem_cache *c, void *obj, gfp_t gfp)
{
	if (unlikely(slab_debug))
		check_object_poison(c, obj);
	if (gfp & __GFP_ZERO)
		memset(obj, 0, c->object_size);
	return obj;
}

/*
 * slab_alloc_slow - an object from cache c itself when this CPU's list is
 * empty (or slab_debug is on): the objects other CPUs freed to the CPU
 * slab, else a slab from the lists, else a new one, becomes this CPU's.
 */
static void *slab_alloc_slow(struct kmem_cache *c, gfp_t gfp)
{
	struct page *page, *new_page = NULL, *release = NULL;
	struct kmem_cache_cpu *cpu;
	unsigned long flags;
	void *obj;

	for (;;) {
		flags = local_irq_save();
		cpu = this_cpu_slab(c);
		spin_lock(&c->lock);
		line_write(&c->line);
		if (cpu->freelist)
			break;
		if (cpu->page && slab_of(cpu->page)->freelist) {
			freeze(c, cpu, cpu->page);
			break;
		}
		if (cpu->page)  /* full: off to slabs_full */
			unfreeze(c, cpu, false);
		if (!list_empty(&c->slabs_partial) ||
		    !list_empty(&c->slabs_free)) {
			page = list_empty(&c->slabs_partial)
				? list_first_entry(&c->slabs_free,
						   struct page, lru)
				: list_first_entry(&c->slabs_partial,
						   struct page, lru);
			list_del_init(&page->lru);
			freeze(c, cpu, page);
			break;
		}
		if (new_page) {
			c->num_slabs++;
			freeze(c, cpu, new_page);
			new_page = NULL;
			break;
		}
		/* No free object anywhere: grow, without holding the lock
		 * (alloc_pages may drain other CPUs' lists, and must not
		 * wait for them with a lock held). */
		spin_unlock(&c->lock);
		local_irq_restore(flags);
		new_page = cache_grow(c, gfp);
		if (!new_page)
			return NULL;
	}
	obj = cpu->freelist;
	if (!obj)  /* every break above leaves an object on the list */
		panic("kmem_cache_alloc: cache %s: empty CPU list after a "
		      "refill", c->name);
	cpu->freelist = next_free(obj);
	cpu->nr_free--;
	/* A removed domain's cache: its slab goes back to the lists at
	 * once, so that no CPU holds a page the domain pays for (the slab
	 * has an object in use now: it is not released). */
	if (unlikely(__atomic_load_n(&c->memcg_params.dead, __ATOMIC_ACQUIRE)))
		release = unfreeze(c, cpu, false);
	spin_unlock(&c->lock);
	local_irq_restore(flags);

	if (new_page)  /* another CPU made room meanwhile */
		slab_release(c, new_page);
	if (release)
		slab_release(c, release);
	return alloc_done(c, obj, gfp);
}

/*
 * memcg_kmem_get_cache - the cache an allocation from c (a root cache)
 * is served by: the current domain's child cache for an accounted
 * allocation (*ref then holds a reference on the domain until
 * memcg_kmem_put_cache), c itself for any other (*ref NULL), NULL if a
 * child cache was needed and there is no memory to make one. Behind the
 * static key: free until the first kmem limit is set. `objects` makes no
 * child cache: c serves every allocation.
 */
static inline struct kmem_cache *memcg_kmem_get_cache(struct kmem_cache *c,
						      gfp_t gfp,
						      struct mem_cgroup **ref)
{
	*ref = NULL;
	if (!memcg_kmem_enabled() || memcg_slab_objects() ||
	    !slab_wants_account(c, gfp))
		return c;
	return __memcg_kmem_get_cache(c, gfp, ref);
}

/* kmem_cache_alloc_slow - the long way, when the fast path found this
 * CPU's list empty or the payer without a child cache of c: the cache
 * chosen again, with a reference on the domain and its child cache made
 * if it has none yet, then slab_alloc_slow. Out of line, so that the
 * common case saves no registers for it. */
static __noinline void *
kmem_cache_alloc_slow(struct kmem_cache *c, gfp_t gfp)
{
	struct mem_cgroup *ref;
	void *obj;

	/* An accounted allocation is served by the domain's child cache,
	 * whose slabs are charged to the domain as whole pages. */
	c = memcg_kmem_get_cache(c, gfp, &ref);
	if (!c)
		return NULL;
	obj = slab_alloc_slow(c, gfp);
	if (ref)
		memcg_kmem_put_cache(ref);
	return obj;
}

/* cpu_pop - the first object on this CPU's list of a cache (cpu is
 * this_cpu_slab of it), or NULL (always NULL with slab_debug: the long
 * way takes the lock). Interrupts off. */
static __always_inline void *
cpu_pop(struct kmem_cache_cpu *cpu)
{
	void *obj = cpu->freelist;

	if (unlikely(slab_debug) || unlikely(!obj))
		return NULL;
	cpu->freelist = next_free(obj);
	cpu->nr_free--;
	return obj;
}

/* fast_done - alloc_done for an object from a CPU list: with slab_debug
 * off (cpu_pop), so only zeroing is left, as a tail call. */
static __always_inline void *
fast_done(struct kmem_cache *c, void *obj, gfp_t gfp)
{
	if (gfp & __GFP_ZERO)
		return memset(obj, 0, c->object_size);
	return obj;
}

/*
 * slab_payer_charged - with the kmem key on, interrupts off: is the payer
 * of an allocation from c (*payer) charged for it? Then its child cache
 * of c serves it. Else c itself does: for the root's tasks (the common
 * case, asked first) and for any allocation that does not ask to be
 * accounted or whose payer is not charged.
 */
static __always_inline bool
slab_payer_charged(struct kmem_cache *c, gfp_t gfp, struct mem_cgroup **payer)
{
	struct mem_cgroup *memcg = memcg_kmem_payer(current, gfp);

	*payer = memcg;
	return memcg != root_mem_cgroup && slab_wants_account(c, gfp) &&
	       memcg_kmem_charges(memcg);
}

/*
 * slab_alloc_from_cpu - the common case: the first object on this CPU's
 * list, taken in one interrupts-off section that writes only this CPU's
 * line. With key_on (the kmem key is on) the cache is chosen in the same
 * section (slab_payer_charged): for an accounted allocation, the payer's
 * child cache, read without a reference. Anything else, a child cache
 * not made yet included, takes the long way, kmem_cache_alloc_slow.
 */
static __always_inline void *
slab_alloc_from_cpu(struct kmem_cache *c, gfp_t gfp, bool key_on)
{
	struct mem_cgroup *payer;
	struct kmem_cache *child;
	unsigned long flags;
	void *obj = NULL;

	/* Two calls of cpu_pop, not one on a cache chosen first: the common
	 * case, c itself, then pops from c where it is, without a copy. */
	flags = local_irq_save();
	if (!key_on || !slab_payer_charged(c, gfp, &payer))
		obj = cpu_pop(this_cpu_slab(c));
	else if ((child = memcg_kmem_child_cache(payer, c->memcg_params.id)))
		obj = cpu_pop(this_cpu_slab(child));
	local_irq_restore(flags);
	/* A child cache's objects have its root's size (fast_done): which
	 * cache served is not needed past the section. */
	if (likely(obj))
		return fast_done(c, obj, gfp);
	return kmem_cache_alloc_slow(c, gfp);
}

/* --- the `objects` hooks (Linux: mm/slab.h, mm/memcontrol.c) ----------- */

/*
 * memcg_slab_pre_alloc_hook - before an accounted allocation from c: its
 * bytes are charged to the owner record of whoever pays (Linux:
 * obj_cgroup_charge in memcg_slab_pre_alloc_hook). Returns the record's
 * id, 0 if nobody pays, or -ENOMEM if the charge was refused.
 */
static inline int memcg_slab_pre_alloc_hook(struct kmem_cache *c, gfp_t gfp)
{
	return memcg_slab_charge(gfp, c->size);
}

/*
 * memcg_slab_post_alloc_hook - after it: obj, if the allocator found
 * one, keeps owner_id (not 0) beside it, in its slab's header; if it
 * found none, the charge goes back.
 */
static inline void memcg_slab_post_alloc_hook(struct kmem_cache *c,
					      uint16_t owner_id, void *obj)
{
	uintptr_t slab_size = PAGE_SIZE << c->order;
	struct slab *slab;

	if (!obj) {
		memcg_slab_uncharge(owner_id, c->size);
		return;
	}
	/* A slab is a buddy block, aligned to its size. */
	slab = (struct slab *)((uintptr_t)obj & ~(slab_size - 1));
	*slab_owner_id(c, slab, obj) = owner_id;
}

/*
 * memcg_slab_free_hook - as an object is freed: its owner id, kept at
 * *slot, is cleared and returned (0: none), for the bytes to go back once
 * the object is on a free list. A double free finds the id cleared
 * already and gives nothing back twice (the allocator then panics on
 * it, if it can tell).
 */
static inline uint16_t memcg_slab_free_hook(uint16_t *slot)
{
	uint16_t owner_id = *slot;

	*slot = 0;
	return owner_id;
}

/* slab_alloc_objects_slow - slab_alloc_objects the long way (this
 * CPU's list empty, or slab_debug): an object as any allocation takes it
 * the long way, then the post-alloc hook. */
static __noinline void *
slab_alloc_objects_slow(struct kmem_cache *c, gfp_t gfp, uint16_t owner_id)
{
	void *obj = kmem_cache_alloc_slow(c, gfp);

	memcg_slab_post_alloc_hook(c, owner_id, obj);
	return obj;
}

/*
 * slab_alloc_objects - an allocation in `objects` once the kmem key is
 * on. One that does not ask to be accounted is any allocation. One that
 * does is charged first (pre-alloc hook), takes its object as any
 * allocation does - the common case first on this CPU's list, as
 * slab_alloc_from_cpu, else the long way - and keeps its owner's id
 * (post-alloc hook).
 */
static __noinline void *
slab_alloc_objects(struct kmem_cache *c, gfp_t gfp)
{
	unsigned long flags;
	int owner_id;
	void *obj;

	if (!slab_wants_account(c, gfp))
		return slab_alloc_from_cpu(c, gfp, false);
	owner_id = memcg_slab_pre_alloc_hook(c, gfp);
	if (owner_id <= 0)
		return owner_id ? NULL : slab_alloc_from_cpu(c, gfp, false);

	flags = local_irq_save();
	obj = cpu_pop(this_cpu_slab(c));
	local_irq_restore(flags);
	if (unlikely(!obj))
		return slab_alloc_objects_slow(c, gfp, owner_id);
	memcg_slab_post_alloc_hook(c, owner_id, obj);
	return fast_done(c, obj, gfp);
}

/*
 * slab_alloc - kmem_cache_alloc and kmalloc, inlined in both. Two copies
 * of the fast path, one each side of the static key, so that with the
 * key off (a 5-byte NOP) nothing of the choice of cache is run; with it
 * on, `objects` takes its own way, out of line.
 */
static __always_inline void *
slab_alloc(struct kmem_cache *c, gfp_t gfp)
{
	if (memcg_kmem_enabled()) {
		if (memcg_slab_objects())
			return slab_alloc_objects(c, gfp);
		return slab_alloc_from_cpu(c, gfp, true);
	}
	return slab_alloc_from_cpu(c, gfp, false);
}

/* Nothing in this file calls kmem_cache_alloc, so the static analyser
 * checks it on its own, for any c, NULL too: it is told what every
 * caller knows. The attribute is the analyser's only: to gcc it would
 * allow dropping the fast path's test of the cache chosen. */
#ifdef __clang_analyzer__
__attribute__((nonnull(1)))
#endif
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	return slab_alloc(c, gfp);
}

/* find_on_list - is obj on the free list that starts at head? */
static bool find_on_list(void *head, void *obj)
{
	for (void *p = head; p; p = next_free(p))
		if (p == obj)
			return true;
	return false;
}

static _Noreturn void double_free(struct kmem_cache *c, void *obj,
				  const char *who)
{
	panic("%s: cache %s: object %p: double free (object is already "
	      "free)", who, c->name, obj);
}

/*
 * slab_free_slow - obj goes back under the cache lock: to this CPU's list
 * if its slab is this CPU's (slab_debug), else to its slab's own free
 * list. The slab of another CPU keeps it until that CPU's list runs dry;
 * any other slab moves list as its count says.
 */
static __noinline void
slab_free_slow(struct kmem_cache *c, struct page *page, void *obj,
	       const char *who)
{
	struct slab *slab = slab_of(page);
	struct kmem_cache_cpu *cpu;
	struct page *release = NULL;
	unsigned long flags;

	flags = spin_lock_irqsave(&c->lock);
	line_write(&c->line);
	cpu = this_cpu_slab(c);
	if (page->slab_inuse == 0 || obj == slab->freelist ||
	    (cpu->page == page && obj == cpu->freelist))
		double_free(c, obj, who);
	if (slab_debug) {
		/* Under the lock every CPU list holds still. */
		if (find_on_list(slab->freelist, obj))
			double_free(c, obj, who);
		for (unsigned int i = 0; i < NR_CPUS; i++)
			if (c->cpu_slab[i].page == page &&
			    find_on_list(c->cpu_slab[i].freelist, obj))
				double_free(c, obj, who);
		poison_object(c, obj);
	}
	if (cpu->page == page) {
		set_next_free(obj, cpu->freelist);
		cpu->freelist = obj;
		cpu->nr_free++;
	} else {
		set_next_free(obj, slab->freelist);
		slab->freelist = obj;
		c->active_objs--;
		page->slab_inuse--;
		if (!(page->flags & PG_slab_cpu) &&
		    (page->slab_inuse == c->num - 1 || page->slab_inuse == 0))
			release = slab_place(c, page, false);
	}
	spin_unlock_irqrestore(&c->lock, flags);

	if (release)
		slab_release(c, release);
}

/* cpu_push - obj onto this CPU's list (cpu), its slab the CPU slab;
 * interrupts off. */
static __always_inline void
cpu_push(struct kmem_cache *c, struct kmem_cache_cpu *cpu, void *obj,
	 const char *who)
{
	if (unlikely(obj == cpu->freelist))
		double_free(c, obj, who);
	set_next_free(obj, cpu->freelist);
	cpu->freelist = obj;
	cpu->nr_free++;
}

/*
 * free_to_this_cpu - the common case of a free: obj, checked, of this
 * CPU's slab, onto this CPU's list in one interrupts-off section that
 * writes only this CPU's line. False, nothing done, for any other object
 * (or with slab_debug): that takes the long way, slab_free_slow.
 */
static __always_inline bool
free_to_this_cpu(struct kmem_cache *c, struct page *page, void *obj,
		 const char *who)
{
	struct kmem_cache_cpu *cpu;
	unsigned long flags;

	flags = local_irq_save();
	cpu = this_cpu_slab(c);
	if (likely(cpu->page == page && !slab_debug)) {
		cpu_push(c, cpu, obj, who);
		local_irq_restore(flags);
		return true;
	}
	local_irq_restore(flags);
	return false;
}

/* slab_free_objects_slow - slab_free_objects the long way: the free,
 * then the bytes back. */
static __noinline void
slab_free_objects_slow(struct kmem_cache *c, struct page *page, void *obj,
		       uint16_t owner_id, const char *who)
{
	slab_free_slow(c, page, obj, who);
	if (owner_id)
		memcg_slab_uncharge(owner_id, c->size);
}

/*
 * slab_free_objects - a free in `objects`: the object's owner, if it has
 * one, taken off it (free hook), the free any design makes, then the
 * bytes back to the owner record (Linux: obj_cgroup_uncharge in
 * memcg_slab_free_hook).
 */
static __always_inline void
slab_free_objects(struct kmem_cache *c, struct page *page, void *obj,
		  uint16_t *owner_slot, const char *who)
{
	uint16_t owner_id = memcg_slab_free_hook(owner_slot);

	if (!free_to_this_cpu(c, page, obj, who)) {
		slab_free_objects_slow(c, page, obj, owner_id, who);
		return;
	}
	if (owner_id)
		memcg_slab_uncharge(owner_id, c->size);
}

/*
 * slab_free - put obj back. The checks name the cache and the object: a
 * wrong cache, an address that is not an object, a double free.
 */
static __always_inline void
slab_free(struct kmem_cache *c, struct page *page, void *obj, const char *who)
{
	struct slab *slab = slab_of(page);
	size_t offset, index;

	/* An object of a child cache may be freed through its root cache. */
	if (unlikely(slab->cache != c) &&
	    slab->cache->memcg_params.root_cache != c)
		panic("%s: object %p belongs to cache %s, not %s", who, obj,
		      slab->cache->name, c->name);
	c = slab->cache;
	/* Below the first object, the offset wraps to a huge index. */
	offset = (uintptr_t)obj - (uintptr_t)slab_object(c, slab, 0);
	index = offset / c->size;
	if (unlikely(offset % c->size != 0 || index >= c->num))
		panic("%s: cache %s: %p is not the start of an object", who,
		      c->name, obj);

	if (memcg_slab_objects())
		slab_free_objects(c, page, obj, &slab->owner_ids[index], who);
	else if (!free_to_this_cpu(c, page, obj, who))
		slab_free_slow(c, page, obj, who);
}

void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	struct page *page = slab_page(obj);

	if (!page)
		panic("kmem_cache_free: cache %s: %p is not a slab object",
		      c->name, obj);
	slab_free(c, page, obj, "kmem_cache_free");
}

/* --- kmalloc -------------------------------------------------------------- */

/* kmalloc_cache - the smallest kmalloc cache for size bytes. */
static inline struct kmem_cache *kmalloc_cache(size_t size)
{
	/* The index is log2 of size rounded up to a power of two, less
	 * log2(KMALLOC_MIN_SIZE) = 3. */
	if (size <= KMALLOC_MIN_SIZE)
		return &kmalloc_caches[0];
	return &kmalloc_caches[64 - __builtin_clzl(size - 1) - 3];
}

void *kmalloc(size_t size, gfp_t gfp)
{
	struct page *page;
	unsigned int order;

	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return slab_alloc(kmalloc_cache(size), gfp);

	/* Large: whole pages, the order recorded in the first page. */
	order = get_order(size);
	if (order > MAX_ORDER)
		return NULL;
	page = alloc_pages(gfp, order);
	return page ? page_address(page) : NULL;
}

/* large_kmalloc_page - the first page of the large kmalloc block at p, or
 * panic: p is neither that nor a slab object. */
static struct page *large_kmalloc_page(const void *p, const char *who)
{
	uint64_t pfn = virt_to_phys(p) >> PAGE_SHIFT;
	struct page *page;

	if (pfn >= max_pfn)
		panic("%s: %p is not a kernel address (outside RAM)", who, p);
	page = pfn_to_page(pfn);
	if (((uintptr_t)p & (PAGE_SIZE - 1)) != 0 || !(page->flags & PG_head))
		panic("%s: %p (pfn 0x%lx) was not returned by kmalloc", who, p,
		      (unsigned long)pfn);
	return page;
}

void kfree(const void *p)
{
	struct page *page;

	if (!p)
		return;
	page = slab_page(p);
	if (page) {
		slab_free(slab_of(page)->cache, page, (void *)p, "kfree");
		return;
	}
	page = large_kmalloc_page(p, "kfree");
	free_accounted_pages(page, page->order);
}

size_t ksize(const void *p)
{
	struct page *page = slab_page(p);

	if (page)
		return slab_of(page)->cache->object_size;
	return PAGE_SIZE << large_kmalloc_page(p, "ksize")->order;
}
