// SPDX-License-Identifier: MIT
/*
 * mm/slab.c - the slab allocator: kernel objects smaller than a page, and
 * kmalloc()/kfree() on top of it (Linux: mm/slab.c, mm/slab_common.c).
 *
 * A slab is a block of 2^order pages from the buddy allocator, cut into
 * objects of one cache's size. It begins with a small header (struct slab):
 * the cache it belongs to and its free list. Each free object holds, in its
 * first word, a pointer to the next free object:
 *
 *   +------------+--------+--------+--------+--------+--------+
 *   | struct slab| obj 0  | obj 1  | obj 2  | obj 3  |  ...   |
 *   | cache      | in use | free --+--------+-> free |        |
 *   | freelist --+--------+--------+-^      |        |        |
 *   +------------+--------+--------+--------+--------+--------+
 *
 * Every page of a slab has PG_slab and the slab's order in page->order, so
 * that from any object's address kfree() finds the first page (the pfn
 * rounded down to the slab's size; buddy blocks are naturally aligned), and
 * from it the header and the cache. The first page also counts the objects
 * in use (page->slab_inuse) and links the slab into one of the cache's three
 * lists (page->lru): partial, full, free. page->memcg is left alone: it is
 * the domain charged for the slab's pages, as for any other page.
 *
 * Allocation takes the first free object of the first partial slab; a new
 * slab is taken from the buddy allocator only when no slab has a free
 * object. A slab whose last object is freed is kept if the cache has no
 * other empty slab, and otherwise goes straight back to the buddy
 * allocator: a cache never sits on more than one empty slab - and a
 * domain's child cache on none (docs/slab.md: its slabs are charged to
 * the domain, which must not pay for pages it no longer uses).
 *
 * Accounting happens at two points only: kmem_cache_alloc() first asks
 * memcg_kmem_get_cache() which cache to take the object from (the
 * domain's child cache for an accounted allocation), and cache_grow()
 * takes a slab's pages through memcg_slab_alloc_pages(), which charges a
 * child cache's domain - and nobody for a root cache.
 */
#include "mm/slab.h"

#include <stdio.h>
#include <string.h>

#include "mm/buddy.h"
#include "mm/debug_free.h"
#include "mm/memcg_hooks.h"
#include "mm/page.h"

/* The header at the start of every slab. */
struct slab {
	struct kmem_cache *cache;
	void *freelist;  /* first free object, NULL if none */
};

/* Slabs are at most 2^3 pages (32 KiB), as Linux's costly order. */
#define SLAB_MAX_ORDER 3

LIST_HEAD(slab_caches);
spinlock_t slab_caches_lock = SPINLOCK_INIT;
unsigned long nr_slab_pages;
bool slab_debug = DEBUG_POISON_DEFAULT;  /* on in the debug build */

/* The cache that kmem_cache_create takes struct kmem_caches from, and the
 * kmalloc caches: these exist from kmem_cache_init on. */
static struct kmem_cache kmem_cache_boot;
static struct kmem_cache kmalloc_caches[KMALLOC_NR_CACHES];

static inline void *next_free(void *obj)
{
	return *(void **)obj;
}

static inline void set_next_free(void *obj, void *next)
{
	*(void **)obj = next;
}

/* --- setting a cache up --------------------------------------------------- */

/*
 * calculate_sizes - choose the slab order: the smallest order that wastes
 * at most 1/8 of the slab (the header and the tail that no object fills),
 * else the order that fits the most objects. Returns false if not even one
 * object fits in a slab of SLAB_MAX_ORDER.
 */
static bool calculate_sizes(struct kmem_cache *c)
{
	unsigned int best = SLAB_MAX_ORDER + 1;

	for (unsigned int order = 0; order <= SLAB_MAX_ORDER; order++) {
		size_t bytes = PAGE_SIZE << order;
		size_t num, waste;

		if (bytes < c->offset + c->size)
			continue;
		num = (bytes - c->offset) / c->size;
		waste = bytes - c->offset - num * c->size;
		best = order;
		if (waste * 8 <= bytes)
			break;
	}
	if (best > SLAB_MAX_ORDER)
		return false;
	c->order = best;
	c->num = ((PAGE_SIZE << best) - c->offset) / c->size;
	if (c->num > UINT16_MAX)  /* page->slab_inuse is 16 bits */
		c->num = UINT16_MAX;
	return true;
}

static inline size_t round_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

/* cache_setup - fill in a cache; false if size or align cannot be met. */
static bool cache_setup(struct kmem_cache *c, const char *name, size_t size,
			size_t align, unsigned int flags)
{
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (flags & SLAB_HWCACHE_ALIGN && align < CACHELINE_SIZE)
		align = CACHELINE_SIZE;
	if (size == 0 || (align & (align - 1)) != 0 || align > PAGE_SIZE ||
	    size > (PAGE_SIZE << SLAB_MAX_ORDER))
		return false;

	spin_lock_init(&c->lock);
	INIT_LIST_HEAD(&c->slabs_partial);
	INIT_LIST_HEAD(&c->slabs_full);
	INIT_LIST_HEAD(&c->slabs_free);
	c->object_size = size;
	c->size = round_up(size, align);
	c->align = align;
	c->offset = round_up(sizeof(struct slab), align);
	c->flags = flags;
	c->active_objs = 0;
	c->num_slabs = 0;
	c->memcg_params.id = -1;
	c->memcg_params.memcg = NULL;
	c->memcg_params.root_cache = NULL;
	snprintf(c->name, sizeof(c->name), "%s", name);
	return calculate_sizes(c);
}

static void cache_list_add(struct kmem_cache *c)
{
	spin_lock(&slab_caches_lock);
	list_add_tail(&c->list, &slab_caches);
	spin_unlock(&slab_caches_lock);
}

void kmem_cache_init(void)
{
	char name[KMEM_CACHE_NAME_MAX];

	INIT_LIST_HEAD(&slab_caches);
	spin_lock_init(&slab_caches_lock);
	nr_slab_pages = 0;
	memcg_slab_reset();

	cache_setup(&kmem_cache_boot, "kmem_cache", sizeof(struct kmem_cache),
		    0, 0);
	cache_list_add(&kmem_cache_boot);
	for (int i = 0; i < KMALLOC_NR_CACHES; i++) {
		unsigned int size = KMALLOC_MIN_SIZE << i;

		snprintf(name, sizeof(name), "kmalloc-%u", size);
		cache_setup(&kmalloc_caches[i], name, size, 0, 0);
		/* accounted for kmalloc(size, GFP_ACCOUNT) */
		memcg_register_cache(&kmalloc_caches[i]);
		cache_list_add(&kmalloc_caches[i]);
	}
}

struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align, unsigned int flags)
{
	struct kmem_cache *c = kmem_cache_alloc(&kmem_cache_boot,
						GFP_KERNEL | __GFP_ZERO);

	if (c && (!cache_setup(c, name, size, align, flags) ||
		  ((flags & SLAB_ACCOUNT) && memcg_register_cache(c) < 0))) {
		kmem_cache_free(&kmem_cache_boot, c);
		c = NULL;
	}
	if (!c) {
		if (flags & SLAB_PANIC)
			panic("kmem_cache_create: cannot create cache %s "
			      "(size %zu, align %zu)", name, size, align);
		return NULL;
	}
	cache_list_add(c);
	return c;
}

struct kmem_cache *kmem_cache_create_child(struct kmem_cache *root,
					   struct mem_cgroup *memcg,
					   const char *name)
{
	struct kmem_cache *c = kmem_cache_alloc(&kmem_cache_boot,
						GFP_KERNEL | __GFP_ZERO);

	if (!c)
		return NULL;
	/* The same size, alignment and flags give the same slab layout. */
	if (!cache_setup(c, name, root->object_size, root->align,
			 root->flags & ~SLAB_PANIC))
		panic("kmem_cache_create_child: cache %s: a copy of a valid "
		      "cache must be valid", root->name);
	c->memcg_params.memcg = memcg;
	c->memcg_params.root_cache = root;
	cache_list_add(c);
	return c;
}

/* --- slabs ---------------------------------------------------------------- */

static inline struct slab *slab_of(struct page *page)
{
	return page_address(page);
}

static inline void *slab_object(struct kmem_cache *c, struct slab *slab,
				unsigned int i)
{
	return (char *)slab + c->offset + (size_t)i * c->size;
}

/*
 * slab_page - the first page of the slab holding addr, or NULL if addr is
 * not in a slab (outside RAM, or a page without PG_slab).
 */
static struct page *slab_page(const void *addr)
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

static void poison_object(struct kmem_cache *c, void *obj)
{
	/* the first word is the free-list link */
	memset((char *)obj + sizeof(void *), SLAB_POISON_FREE,
	       c->size - sizeof(void *));
}

static void check_object_poison(struct kmem_cache *c, void *obj)
{
	const unsigned char *p = obj;

	for (size_t i = sizeof(void *); i < c->size; i++)
		if (p[i] != SLAB_POISON_FREE)
			panic("kmem_cache_alloc: cache %s: object %p: use "
			      "after free: byte %lu of the %lu-byte object was "
			      "changed to 0x%02x while it was free (poison "
			      "0x%02x)", c->name, obj, (unsigned long)i,
			      (unsigned long)c->size, p[i], SLAB_POISON_FREE);
}

/*
 * cache_grow - a new slab from the buddy allocator, all objects free, on no
 * list yet; NULL if out of memory. Called without the cache lock.
 */
static struct page *cache_grow(struct kmem_cache *c, gfp_t gfp)
{
	struct page *page = memcg_slab_alloc_pages(c, gfp);
	struct slab *slab;

	if (!page)
		return NULL;
	for (unsigned int i = 0; i < (1u << c->order); i++) {
		page[i].flags |= PG_slab;
		page[i].order = c->order;
	}
	page->slab_inuse = 0;

	slab = slab_of(page);
	slab->cache = c;
	slab->freelist = slab_object(c, slab, 0);
	for (unsigned int i = 0; i < c->num; i++) {
		void *obj = slab_object(c, slab, i);

		set_next_free(obj, i + 1 < c->num ? slab_object(c, slab, i + 1)
						  : NULL);
		if (slab_debug)
			poison_object(c, obj);
	}
	__atomic_add_fetch(&nr_slab_pages, 1ul << c->order, __ATOMIC_RELAXED);
	return page;
}

/*
 * slab_release - give an empty slab, on no list, back to the buddy
 * allocator. Called without the cache lock. c is not touched once the
 * pages are freed: for a child cache, that may have dropped the last
 * reference on its domain, which destroys the cache.
 */
static void slab_release(struct kmem_cache *c, struct page *page)
{
	unsigned int order = c->order;

	for (unsigned int i = 1; i < (1u << order); i++) {
		page[i].flags &= ~PG_slab;
		page[i].order = 0;
	}
	page->flags &= ~PG_slab;  /* the first page keeps PG_head and order */
	__atomic_sub_fetch(&nr_slab_pages, 1ul << order, __ATOMIC_RELAXED);
	free_accounted_pages(page, order);
}

/* --- objects -------------------------------------------------------------- */

/* slab_alloc - an object from cache c itself (kmem_cache_alloc, once the
 * cache is chosen). */
static void *slab_alloc(struct kmem_cache *c, gfp_t gfp)
{
	unsigned long flags;
	struct page *page, *new_page = NULL;
	struct slab *slab;
	void *obj;

	flags = spin_lock_irqsave(&c->lock);
	while (list_empty(&c->slabs_partial)) {
		if (!list_empty(&c->slabs_free)) {
			/* reuse the empty slab the cache kept */
			page = list_first_entry(&c->slabs_free, struct page,
						lru);
			list_del_init(&page->lru);
			list_add(&page->lru, &c->slabs_partial);
			break;
		}
		if (new_page) {
			list_add(&new_page->lru, &c->slabs_partial);
			c->num_slabs++;
			new_page = NULL;
			break;
		}
		/* No free object anywhere: grow, without holding the lock
		 * (alloc_pages may drain other CPUs' lists, and must not
		 * wait for them with a lock held). */
		spin_unlock_irqrestore(&c->lock, flags);
		new_page = cache_grow(c, gfp);
		if (!new_page)
			return NULL;
		flags = spin_lock_irqsave(&c->lock);
	}

	page = list_first_entry(&c->slabs_partial, struct page, lru);
	slab = slab_of(page);
	obj = slab->freelist;
	slab->freelist = next_free(obj);
	page->slab_inuse++;
	c->active_objs++;
	if (page->slab_inuse == c->num) {
		list_del_init(&page->lru);
		list_add(&page->lru, &c->slabs_full);
	}
	spin_unlock_irqrestore(&c->lock, flags);

	if (new_page)  /* another CPU made room meanwhile */
		slab_release(c, new_page);
	if (slab_debug)
		check_object_poison(c, obj);
	if (gfp & __GFP_ZERO)
		memset(obj, 0, c->object_size);
	return obj;
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
	if (!memcg_kmem_enabled() || c->memcg_params.id < 0)
		return c;
	if (!(c->flags & SLAB_ACCOUNT) && !(gfp & __GFP_KMEMCG))
		return c;
	return __memcg_kmem_get_cache(c, gfp, ref);
}

void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	struct mem_cgroup *ref;
	void *obj;

	/* An accounted allocation is served by the domain's child cache,
	 * whose slabs are charged to the domain as whole pages. */
	c = memcg_kmem_get_cache(c, gfp, &ref);
	if (!c)
		return NULL;
	obj = slab_alloc(c, gfp);
	if (ref)
		memcg_kmem_put_cache(ref);
	return obj;
}

/*
 * slab_free - put obj back on its slab's free list. The checks name the
 * cache and the object: a wrong cache, an address that is not an object,
 * a double free.
 */
static void slab_free(struct kmem_cache *c, struct page *page, void *obj,
		      const char *who)
{
	struct slab *slab = slab_of(page);
	size_t offset = (char *)obj - (char *)slab_object(c, slab, 0);
	struct page *release = NULL;
	unsigned long flags;

	/* An object of a child cache may be freed through its root cache. */
	if (slab->cache != c && slab->cache->memcg_params.root_cache == c)
		c = slab->cache;
	if (slab->cache != c)
		panic("%s: object %p belongs to cache %s, not %s", who, obj,
		      slab->cache->name, c->name);
	if ((char *)obj < (char *)slab_object(c, slab, 0) ||
	    offset % c->size != 0 || offset / c->size >= c->num)
		panic("%s: cache %s: %p is not the start of an object", who,
		      c->name, obj);

	flags = spin_lock_irqsave(&c->lock);
	if (page->slab_inuse == 0 || obj == slab->freelist)
		panic("%s: cache %s: object %p: double free (object is "
		      "already free)", who, c->name, obj);
	if (slab_debug) {
		for (void *p = slab->freelist; p; p = next_free(p))
			if (p == obj)
				panic("%s: cache %s: object %p: double free "
				      "(object is already free)", who,
				      c->name, obj);
		poison_object(c, obj);
	}
	set_next_free(obj, slab->freelist);
	slab->freelist = obj;
	c->active_objs--;

	if (page->slab_inuse-- == c->num) {
		/* it was full: now it has a free object */
		list_del_init(&page->lru);
		list_add(&page->lru, &c->slabs_partial);
	}
	if (page->slab_inuse == 0) {
		/* empty: keep one empty slab, give any other back - and every
		 * one of a child cache, so that its domain pays for none */
		list_del_init(&page->lru);
		if (list_empty(&c->slabs_free) && !is_child_cache(c)) {
			list_add(&page->lru, &c->slabs_free);
		} else {
			c->num_slabs--;
			release = page;
		}
	}
	spin_unlock_irqrestore(&c->lock, flags);

	if (release)
		slab_release(c, release);
}

void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	struct page *page = slab_page(obj);

	if (!page)
		panic("kmem_cache_free: cache %s: %p is not a slab object",
		      c->name, obj);
	slab_free(c, page, obj, "kmem_cache_free");
}

void kmem_cache_shrink(struct kmem_cache *c)
{
	unsigned long flags;
	struct page *page;

	for (;;) {
		flags = spin_lock_irqsave(&c->lock);
		if (list_empty(&c->slabs_free)) {
			spin_unlock_irqrestore(&c->lock, flags);
			return;
		}
		page = list_first_entry(&c->slabs_free, struct page, lru);
		list_del_init(&page->lru);
		c->num_slabs--;
		spin_unlock_irqrestore(&c->lock, flags);
		slab_release(c, page);
	}
}

static bool is_builtin_cache(const struct kmem_cache *c)
{
	return c == &kmem_cache_boot ||
	       (c >= kmalloc_caches && c < kmalloc_caches + KMALLOC_NR_CACHES);
}

void kmem_cache_destroy(struct kmem_cache *c)
{
	if (!c)
		return;
	if (is_builtin_cache(c))
		panic("kmem_cache_destroy: cache %s is built in", c->name);
	if (c->active_objs != 0)
		panic("kmem_cache_destroy: cache %s still has %lu objects in "
		      "use", c->name, c->active_objs);
	memcg_unregister_cache(c);  /* a root cache: its domains' copies */
	kmem_cache_shrink(c);

	spin_lock(&slab_caches_lock);
	list_del_init(&c->list);
	spin_unlock(&slab_caches_lock);
	kmem_cache_free(&kmem_cache_boot, c);
}

void get_slabinfo(struct kmem_cache *c, struct slabinfo *info)
{
	unsigned long flags = spin_lock_irqsave(&c->lock);
	unsigned long empty = list_empty(&c->slabs_free) ? 0 : 1;

	info->active_objs = c->active_objs;
	info->num_objs = c->num_slabs * c->num;
	info->active_slabs = c->num_slabs - empty;
	info->num_slabs = c->num_slabs;
	info->objsize = c->size;
	info->objperslab = c->num;
	info->pagesperslab = 1u << c->order;
	spin_unlock_irqrestore(&c->lock, flags);
}

/* --- kmalloc -------------------------------------------------------------- */

/* kmalloc_cache - the smallest kmalloc cache for size bytes. */
static struct kmem_cache *kmalloc_cache(size_t size)
{
	unsigned int i = 0;

	while ((size_t)(KMALLOC_MIN_SIZE << i) < size)
		i++;
	return &kmalloc_caches[i];
}

void *kmalloc(size_t size, gfp_t gfp)
{
	struct page *page;
	unsigned int order;

	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return kmem_cache_alloc(kmalloc_cache(size), gfp);

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
