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
 * In `objects` (mm/memcg/obj_owner.h) each object is charged by the byte
 * and keeps its owner's id, and the CPU keeps a second list beside
 * freelist: the owned list, objects of its slab freed while still
 * charged to one owner record (Linux has none: its free gives the bytes
 * back to the byte stock every time). The owner's next allocation pops
 * one with no charge to make and no id to write (owned_pop), and a free
 * of the owner's object pushes it with none to give back (owned_push):
 * the common case, a domain freeing and allocating on one CPU, costs a
 * compare of ids each way. Anything else - an object of another record,
 * the list to be emptied - goes the long ways; the list goes back to
 * freelist, its bytes to the record, when freelist runs dry, when the
 * slab is taken back, and on a drain (slab_owned_release).
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
		/* With freelist empty, objects still charged go back to it
		 * first: the caller, not their owner, may take them, and
		 * the CPU slab may leave this CPU below. */
		flags = local_irq_save();
		cpu = this_cpu_slab(c);
		if (!cpu->freelist)
			slab_owned_release(c, NULL);
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
 * static key: free until the first kmem limit is set.
 */
static inline struct kmem_cache *memcg_kmem_get_cache(struct kmem_cache *c,
						      gfp_t gfp,
						      struct mem_cgroup **ref)
{
	*ref = NULL;
	if (!memcg_kmem_enabled() || !slab_wants_account(c, gfp))
		return c;
	return __memcg_kmem_get_cache(c, gfp, ref);
}

/* memcg_slab_post_alloc_hook - `objects`: obj, just handed out by c,
 * is owner's (Linux: memcg_slab_post_alloc_hook). */
static __attribute__((always_inline)) inline void
memcg_slab_post_alloc_hook(struct kmem_cache *c, void *obj,
			   struct obj_owner *owner)
{
	*slab_owner_id(c, obj) = obj_owner_id(owner);
}

/* kmem_cache_alloc_slow - the long way, when the fast path found this
 * CPU's list empty or the payer without a child cache of c: the cache
 * chosen again, with a reference on the domain and its child cache made
 * if it has none yet, then slab_alloc_slow. Out of line, so that the
 * common case saves no registers for it. */
static __attribute__((noinline)) void *
kmem_cache_alloc_slow(struct kmem_cache *c, gfp_t gfp)
{
	struct obj_owner *owner;
	struct mem_cgroup *ref;
	void *obj;

	/* `objects`: the root cache serves, the owner record is charged
	 * first, and the object records it (memcg_slab_post_alloc_hook). */
	if (memcg_slab_objects()) {
		if (memcg_slab_pre_alloc_hook(c, gfp, c->size, &owner))
			return NULL;
		obj = slab_alloc_slow(c, gfp);
		if (owner && obj)
			memcg_slab_post_alloc_hook(c, obj, owner);
		else if (owner)
			__memcg_slab_free_hook(owner, c->size);
		return obj;
	}
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
static __attribute__((always_inline)) inline void *
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
static __attribute__((always_inline)) inline void *
fast_done(struct kmem_cache *c, void *obj, gfp_t gfp)
{
	if (gfp & __GFP_ZERO)
		return memset(obj, 0, c->object_size);
	return obj;
}

/* cpu_owner_id - where the owner id of obj, an object of this CPU's
 * slab (cpu), is: its index by the reciprocal, without finding its slab. */
static __attribute__((always_inline)) inline uint16_t *
cpu_owner_id(struct kmem_cache *c, struct kmem_cache_cpu *cpu, void *obj)
{
	return &cpu->owner_ids[((uint64_t)((char *)obj - cpu->first_object) *
				c->reciprocal) >> 32];
}

/*
 * owned_pop - `objects`, interrupts off: an object of c for payer,
 * charged to payer's owner record, or NULL (the long way). The common
 * case: an object payer freed on this CPU, still charged to it, from
 * the owned list. Else one from freelist, charged from this CPU's byte
 * stock and given payer's id.
 */
static __attribute__((always_inline)) inline void *
owned_pop(struct kmem_cache *c, struct mem_cgroup *payer)
{
	uint16_t id = memcg_kmem_view(payer)->obj_owner_id;
	struct kmem_cache_cpu *cpu = this_cpu_slab(c);
	struct obj_stock *stock;
	void *obj;

	__asm__("" : "+r"(cpu));  /* in a register: see slab_free */
	if (likely(id == cpu->owned_id && cpu->owned)) {
		obj = cpu->owned;
		cpu->owned = next_free(obj);
		cpu->nr_owned--;
		return obj;
	}
	stock = this_cpu_obj_stock();
	if (!__obj_stock_take(stock, id, c->size))
		return NULL;
	obj = cpu_pop(cpu);
	if (unlikely(!obj)) {  /* the charge goes back where it came from */
		stock->nr_bytes += c->size;
		return NULL;
	}
	*cpu_owner_id(c, cpu, obj) = id;
	return obj;
}

/* slab_owned_release (mm/memcg_hooks.h) - each object's id is cleared
 * as it moves, as freelist's objects are charged to nobody; the bytes go
 * to this CPU's byte stock if it holds the record and has room, else
 * back to the record. */
void slab_owned_release(struct kmem_cache *c, struct mem_cgroup *top)
{
	struct kmem_cache_cpu *cpu = this_cpu_slab(c);
	unsigned int bytes = 0;
	void *obj, *next;

	if (!cpu->owned || !obj_owner_in_subtree(cpu->owned_id, top))
		return;
	for (obj = cpu->owned; obj; obj = next) {
		next = next_free(obj);
		*cpu_owner_id(c, cpu, obj) = 0;
		set_next_free(obj, cpu->freelist);
		cpu->freelist = obj;
		bytes += c->size;
	}
	cpu->owned = NULL;
	cpu->nr_free += cpu->nr_owned;
	cpu->nr_owned = 0;
	if (!__obj_stock_give(this_cpu_obj_stock(), cpu->owned_id, bytes))
		__memcg_slab_free_hook(obj_owner_table[cpu->owned_id], bytes);
}

/*
 * slab_payer_charged - with the kmem key on, interrupts off: is the payer
 * of an allocation from c (*payer) charged for it? Then its child cache
 * of c serves it. Else c itself does: for the root's tasks (the common
 * case, asked first) and for any allocation that does not ask to be
 * accounted or whose payer is not charged.
 */
static __attribute__((always_inline)) inline bool
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
static __attribute__((always_inline)) inline void *
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
	/* `objects` makes no child cache: its key is asked after the
	 * lookup, so that `caches` pays nothing for it on a hit. */
	else if (memcg_slab_objects())
		obj = owned_pop(c, payer);
	local_irq_restore(flags);
	/* A child cache's objects have its root's size (fast_done): which
	 * cache served is not needed past the section. */
	if (likely(obj))
		return fast_done(c, obj, gfp);
	return kmem_cache_alloc_slow(c, gfp);
}

/*
 * slab_alloc - kmem_cache_alloc and kmalloc, inlined in both. Two copies
 * of the fast path, one each side of the static key, so that with the
 * key off (a 5-byte NOP) nothing of the choice of cache is run.
 */
static __attribute__((always_inline)) inline void *
slab_alloc(struct kmem_cache *c, gfp_t gfp)
{
	if (memcg_kmem_enabled())
		return slab_alloc_from_cpu(c, gfp, true);
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
static __attribute__((noinline)) void
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
static __attribute__((always_inline)) inline void
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
 * owned_push - `objects`, interrupts off: obj, whose owner id is at *id,
 * goes back to this CPU's lists if its slab (page) is the CPU slab and
 * no charge has to be given back: onto freelist if it is charged to
 * nobody; onto the owned list, still charged, if it is charged to the
 * list's record, or to any record when the list is empty (the list
 * becomes that record's). False otherwise: slab_free_owned_slow.
 */
static __attribute__((always_inline)) inline bool
owned_push(struct kmem_cache *c, struct kmem_cache_cpu *cpu,
	   struct page *page, void *obj, uint16_t *id, const char *who)
{
	uint16_t owner;

	if (cpu->page != page || slab_debug)
		return false;
	owner = *id;
	if (owner != cpu->owned_id) {  /* never 0: see mm/slab.h */
		if (!owner) {
			cpu_push(c, cpu, obj, who);
			return true;
		}
		if (cpu->owned)
			return false;
		cpu->owned_id = owner;
	}
	if (unlikely(obj == cpu->owned))
		double_free(c, obj, who);
	set_next_free(obj, cpu->owned);
	cpu->owned = obj;
	cpu->nr_owned++;
	return true;
}

/*
 * slab_free_owned_slow - `objects`: obj, of c's slab page, is freed when
 * owned_push could not: its bytes, if it has an owner, go to this CPU's
 * byte stock and the object onto freelist, if the stock holds its record
 * and the slab is the CPU's; else the bytes go back to the record and
 * the object to its slab. Out of line: the fast path saves no
 * registers for it.
 */
static __attribute__((noinline)) void
slab_free_owned_slow(struct kmem_cache *c, struct page *page, void *obj,
		     const char *who)
{
	uint16_t *id = slab_owner_id(c, obj), owner;
	struct kmem_cache_cpu *cpu;
	unsigned long flags;

	flags = local_irq_save();
	cpu = this_cpu_slab(c);
	owner = *id;
	if (owner && cpu->page == page && !slab_debug &&
	    __obj_stock_give(this_cpu_obj_stock(), owner, c->size)) {
		*id = 0;
		cpu_push(c, cpu, obj, who);
		local_irq_restore(flags);
		return;
	}
	local_irq_restore(flags);
	if (owner) {
		*id = 0;
		__memcg_slab_free_hook(obj_owner_table[owner], c->size);
	}
	slab_free_slow(c, page, obj, who);
}

/*
 * slab_free - put obj back. The checks name the cache and the object: a
 * wrong cache, an address that is not an object, a double free. The
 * common case, an object of this CPU's slab, goes on this CPU's list in
 * one interrupts-off section that writes only this CPU's line.
 */
static __attribute__((always_inline)) inline void
slab_free(struct kmem_cache *c, struct page *page, void *obj, const char *who)
{
	struct slab *slab = slab_of(page);
	struct kmem_cache_cpu *cpu;
	unsigned long flags;
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

	flags = local_irq_save();
	cpu = this_cpu_slab(c);
	/* Kept in a register: gcc would keep the CPU number instead and
	 * work the address out again, a copy and three instructions. */
	__asm__("" : "+r"(cpu));
	if (likely(cpu->list_page == page && !slab_debug)) {
		cpu_push(c, cpu, obj, who);
		local_irq_restore(flags);
		return;
	}
	/* `objects`: list_page is NULL, the owner decides. Its key is
	 * asked only here, so that `caches` pays nothing for it. */
	if (memcg_slab_objects() &&
	    owned_push(c, cpu, page, obj, &slab->owner_ids[index], who)) {
		local_irq_restore(flags);
		return;
	}
	local_irq_restore(flags);
	if (memcg_slab_objects())
		slab_free_owned_slow(c, page, obj, who);
	else
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
