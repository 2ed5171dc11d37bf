/* SPDX-License-Identifier: MIT */
/*
 * mm/slab_internal.h - what the files of the slab allocator share
 * (mm/slab.c, mm/slab_alloc.c, mm/slab_check.c): the layout of a slab,
 * the inlines that find a slab and walk its free objects, and the calls
 * each file makes into the others. Not for the rest of the kernel:
 * mm/slab.h is the interface.
 */
#ifndef MM_SLAB_INTERNAL_H
#define MM_SLAB_INTERNAL_H

#include "mm/slab.h"

#include "mm/buddy.h"
#include "mm/debug_free.h"
#include "mm/page.h"

/* The header at the start of every slab. In the `objects` design
 * (mm/memcg_hooks.h) it ends with the owner id of each object, by index:
 * 0 for an object charged to nobody, or free (Linux: the vector
 * page->obj_cgroups). The objects start after it. */
struct slab {
	struct kmem_cache *cache;
	void *freelist;  /* first free object, NULL if none */
	uint16_t owner_ids[];  /* `objects` only: num of them */
};

/* Slabs are at most 2^3 pages (32 KiB), as Linux's costly order. */
#define SLAB_MAX_ORDER 3

/* The kmalloc caches, kmalloc-8 .. kmalloc-2048 (mm/slab.c). */
extern struct kmem_cache kmalloc_caches[KMALLOC_NR_CACHES];

static inline void *next_free(void *obj)
{
	return *(void **)obj;
}

static inline void set_next_free(void *obj, void *next)
{
	*(void **)obj = next;
}

static inline struct slab *slab_of(struct page *page)
{
	return page_address(page);
}

static inline void *slab_object(struct kmem_cache *c, struct slab *slab,
				unsigned int i)
{
	return (char *)slab + c->offset + (size_t)i * c->size;
}

/* object_index - the index of obj, an object of slab, in its slab. */
static inline unsigned int object_index(const struct kmem_cache *c,
					const struct slab *slab,
					const void *obj)
{
	unsigned int offset = (uintptr_t)obj - (uintptr_t)slab - c->offset;

	return offset / c->size;
}

/* slab_owner_id - where `objects` keeps the owner id of obj, an object
 * of slab. */
static inline uint16_t *slab_owner_id(const struct kmem_cache *c,
				      struct slab *slab, const void *obj)
{
	return &slab->owner_ids[object_index(c, slab, obj)];
}

/*
 * slab_page - the first page of the slab holding addr, or NULL if addr is
 * not in a slab (outside RAM, or a page without PG_slab).
 */
static inline struct page *slab_page(const void *addr)
{
	uint64_t pfn = virt_to_phys(addr) >> PAGE_SHIFT;
	struct page *page;

	if (pfn >= max_pfn)
		return NULL;
	page = pfn_to_page(pfn);
	if (!(page->flags & PG_slab))
		return NULL;
	return pfn_to_page(pfn & ~((1ul << page->order) - 1));
}

static inline struct kmem_cache_cpu *this_cpu_slab(struct kmem_cache *c)
{
	return &c->cpu_slab[smp_processor_index()];
}

/* cpu_held - the free objects on one CPU's list (cpu), read without
 * stopping it. */
static inline unsigned long cpu_held(const struct kmem_cache_cpu *cpu)
{
	return READ_ONCE(cpu->nr_free);
}

/* mm/slab.c: a cache's slabs, taken from and given back to the buddy
 * allocator, without the cache lock. */
struct page *cache_grow(struct kmem_cache *c, gfp_t gfp);
void slab_release(struct kmem_cache *c, struct page *page);

/* mm/slab.c: taking back the CPU slabs of a cache - on this CPU (an
 * IPI's function), or on every CPU that has one. */
void flush_cpu_slab(void *arg);
void kmem_cache_flush_cpus(struct kmem_cache *c);

/* mm/slab.c: a CPU's slab - a slab made this CPU's (freeze), one
 * given back to its cache's lists (unfreeze), and a slab no CPU owns
 * put on the list its count says (slab_place); see the definitions.
 * Cache lock held, interrupts off. */
void freeze(struct kmem_cache *c, struct kmem_cache_cpu *cpu,
	    struct page *page);
struct page *unfreeze(struct kmem_cache *c, struct kmem_cache_cpu *cpu,
		      bool keep_empty);
struct page *slab_place(struct kmem_cache *c, struct page *page,
			bool keep_empty);

/* mm/slab_check.c: slab_debug's poison, put on a free object and checked
 * when it is handed out again. */
void poison_object(struct kmem_cache *c, void *obj);
__noinline void
check_object_poison(struct kmem_cache *c, void *obj);

#endif
