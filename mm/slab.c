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
 * longer uses).
 *
 * slab_debug (the debug build) sends every allocation and free through
 * the lock, so that poisoning and the double-free search see every CPU's
 * list at rest; check (slab_check) counts the objects on CPU lists.
 *
 * Accounting happens at two points only: the fast path chooses the cache
 * to take the object from in its interrupts-off section (slab_payer_charged:
 * the payer's child cache for an accounted allocation; the long way,
 * memcg_kmem_get_cache, makes it if there is none yet), and cache_grow()
 * takes a slab's pages through memcg_slab_alloc_pages(), which charges a
 * child cache's domain - and nobody for a root cache.
 */
#include "mm/slab.h"

#include <stdarg.h>
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
static struct kmem_cache kmem_cache_boot __cacheline_aligned;
static struct kmem_cache kmalloc_caches[KMALLOC_NR_CACHES] __cacheline_aligned;

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
	memset(c->cpu_slab, 0, sizeof(c->cpu_slab));
	c->line = (struct line_owner){0, 0};
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
	c->memcg_params.always = 0;
	c->memcg_params.when = 0;
	c->memcg_params.memcg = NULL;
	c->memcg_params.dead = false;
	c->memcg_params.root_cache = NULL;
	snprintf(c->name, sizeof(c->name), "%s", name);
	return calculate_sizes(c);
}

/* slab_caches_lock is taken with interrupts off, always: the IPI of
 * kmem_cache_destroy walks the list. */
static void cache_list_add(struct kmem_cache *c)
{
	unsigned long flags = spin_lock_irqsave(&slab_caches_lock);

	list_add_tail(&c->list, &slab_caches);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
}

void kmem_cache_init(void)
{
	char name[KMEM_CACHE_NAME_MAX];

	INIT_LIST_HEAD(&slab_caches);
	spin_lock_init(&slab_caches_lock);
	nr_slab_pages = 0;
	memcg_slab_reset();

	/* Aligned to a cache line: each CPU slab is a line of its own. */
	cache_setup(&kmem_cache_boot, "kmem_cache", sizeof(struct kmem_cache),
		    CACHELINE_SIZE, 0);
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

static void poison_object(struct kmem_cache *c, void *obj)
{
	/* the first word is the free-list link */
	memset((char *)obj + sizeof(void *), SLAB_POISON_FREE,
	       c->size - sizeof(void *));
}

static __attribute__((noinline)) void
check_object_poison(struct kmem_cache *c, void *obj)
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

/* --- the CPU slabs ------------------------------------------------------- */

static inline struct kmem_cache_cpu *this_cpu_slab(struct kmem_cache *c)
{
	return &c->cpu_slab[smp_processor_id()];
}

/*
 * freeze - make page this CPU's slab: its free objects move to the CPU's
 * list, and count as in use in the slab's and the cache's counts. Also
 * takes the objects other CPUs freed to the CPU slab meanwhile. Cache
 * lock held, interrupts off.
 */
static void freeze(struct kmem_cache *c, struct kmem_cache_cpu *cpu,
		   struct page *page)
{
	struct slab *slab = slab_of(page);
	unsigned int n = c->num - page->slab_inuse;
	void *last = slab->freelist;

	if (!last)
		return;
	/* A CPU slab that got objects back: they go in front. */
	while (next_free(last))
		last = next_free(last);
	set_next_free(last, cpu->freelist);
	cpu->freelist = slab->freelist;
	cpu->nr_free += n;
	cpu->page = page;
	slab->freelist = NULL;
	page->slab_inuse = c->num;
	page->flags |= PG_slab_cpu;
	c->active_objs += n;
}

/*
 * slab_place - put a slab that no CPU owns on the list its count says.
 * An empty one is kept on slabs_free if keep_empty or if it is a root
 * cache's only empty slab; otherwise it is off every list and returned,
 * for the caller to give back (slab_release) once the lock is dropped.
 * Cache lock held.
 */
static struct page *slab_place(struct kmem_cache *c, struct page *page,
			       bool keep_empty)
{
	list_del_init(&page->lru);
	if (page->slab_inuse == c->num) {
		list_add(&page->lru, &c->slabs_full);
	} else if (page->slab_inuse != 0) {
		list_add(&page->lru, &c->slabs_partial);
	} else if (keep_empty ||
		   (list_empty(&c->slabs_free) && !is_child_cache(c))) {
		list_add(&page->lru, &c->slabs_free);
	} else {
		c->num_slabs--;
		return page;
	}
	return NULL;
}

/*
 * unfreeze - give this CPU's slab back to the cache's lists, with the
 * objects on the CPU's list. Returns the slab if it is to be released
 * (see slab_place). Cache lock held, interrupts off.
 */
static struct page *unfreeze(struct kmem_cache *c, struct kmem_cache_cpu *cpu,
			     bool keep_empty)
{
	struct page *page = cpu->page;
	struct slab *slab;
	void *obj, *next;

	if (!page)
		return NULL;
	slab = slab_of(page);
	for (obj = cpu->freelist; obj; obj = next) {
		next = next_free(obj);
		set_next_free(obj, slab->freelist);
		slab->freelist = obj;
	}
	page->slab_inuse -= cpu->nr_free;
	c->active_objs -= cpu->nr_free;
	page->flags &= ~PG_slab_cpu;
	cpu->freelist = NULL;
	cpu->nr_free = 0;
	cpu->page = NULL;
	return slab_place(c, page, keep_empty);
}

/* flush_cpu_slab - on each CPU (the IPI of kmem_cache_flush_cpus): give
 * its slab of the cache back, keeping an empty one on slabs_free: pages
 * are not freed from the IPI. */
static void flush_cpu_slab(void *arg)
{
	struct kmem_cache *c = arg;
	unsigned long flags = spin_lock_irqsave(&c->lock);

	line_write(&c->line);
	unfreeze(c, this_cpu_slab(c), true);
	spin_unlock_irqrestore(&c->lock, flags);
}

/*
 * kmem_cache_flush_cpus - take back every CPU's slab of c, by IPI, if any
 * CPU has one: a cache no CPU uses costs no IPI, so that a domain's child
 * caches, flushed when it is removed, can be destroyed anywhere later.
 */
static void kmem_cache_flush_cpus(struct kmem_cache *c)
{
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		if (READ_ONCE(c->cpu_slab[cpu].page)) {
			smp_call_function_all(flush_cpu_slab, c);
			return;
		}
	}
}

/*
 * give_back_empty - this CPU's slab of c, if no object of it is in use
 * (all are on this CPU's list, or were freed to the slab's own list),
 * goes back to the cache's lists, and is returned if it is to be
 * released (see slab_place). Cache lock held, interrupts off.
 */
static struct page *give_back_empty(struct kmem_cache *c)
{
	struct kmem_cache_cpu *cpu = this_cpu_slab(c);

	if (!cpu->page || cpu->page->slab_inuse != cpu->nr_free)
		return NULL;
	line_write(&c->line);
	return unfreeze(c, cpu, false);
}

void slab_cpu_idle(void)
{
	struct kmem_cache *c;
	struct page *page;
	unsigned long flags;
	LIST_HEAD(release);

	/* Collected on a list, released once no lock is held: a child
	 * cache's last slab may drop its domain's last reference, and the
	 * domain's child caches are destroyed with it. */
	flags = spin_lock_irqsave(&slab_caches_lock);
	list_for_each_entry(c, &slab_caches, list) {
		spin_lock(&c->lock);
		page = give_back_empty(c);
		spin_unlock(&c->lock);
		if (page)
			list_add(&page->lru, &release);
	}
	spin_unlock_irqrestore(&slab_caches_lock, flags);

	while (!list_empty(&release)) {
		page = list_first_entry(&release, struct page, lru);
		list_del_init(&page->lru);
		slab_release(slab_of(page)->cache, page);
	}
}

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
		flags = spin_lock_irqsave(&c->lock);
		line_write(&c->line);
		cpu = this_cpu_slab(c);
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
		spin_unlock_irqrestore(&c->lock, flags);
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
	spin_unlock_irqrestore(&c->lock, flags);

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

/* kmem_cache_alloc_slow - the long way, when the fast path found this
 * CPU's list empty or the payer without a child cache of c: the cache
 * chosen again, with a reference on the domain and its child cache made
 * if it has none yet, then slab_alloc_slow. Out of line, so that the
 * common case saves no registers for it. */
static __attribute__((noinline)) void *
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

/* cpu_pop - the first object on this CPU's list of c, or NULL (always
 * NULL with slab_debug: the long way takes the lock). Interrupts off. */
static __attribute__((always_inline)) inline void *
cpu_pop(struct kmem_cache *c)
{
	struct kmem_cache_cpu *cpu = this_cpu_slab(c);
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
	struct mem_cgroup *memcg = memcg_kmem_payer(current);

	*payer = memcg;
	return memcg != root_mem_cgroup && slab_wants_account(c, gfp) &&
	       memcg_kmem_charges(memcg, gfp);
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
		obj = cpu_pop(c);
	else if ((child = memcg_kmem_child_cache(payer, c->memcg_params.id)))
		obj = cpu_pop(child);
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
	size_t offset;

	/* An object of a child cache may be freed through its root cache. */
	if (unlikely(slab->cache != c) &&
	    slab->cache->memcg_params.root_cache != c)
		panic("%s: object %p belongs to cache %s, not %s", who, obj,
		      slab->cache->name, c->name);
	c = slab->cache;
	offset = (char *)obj - (char *)slab_object(c, slab, 0);
	if (unlikely((char *)obj < (char *)slab_object(c, slab, 0) ||
		     offset % c->size != 0 || offset / c->size >= c->num))
		panic("%s: cache %s: %p is not the start of an object", who,
		      c->name, obj);

	flags = local_irq_save();
	cpu = this_cpu_slab(c);
	if (likely(cpu->page == page && !slab_debug)) {
		if (unlikely(obj == cpu->freelist))
			double_free(c, obj, who);
		set_next_free(obj, cpu->freelist);
		cpu->freelist = obj;
		cpu->nr_free++;
		local_irq_restore(flags);
		return;
	}
	local_irq_restore(flags);
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

void kmem_cache_shrink(struct kmem_cache *c)
{
	unsigned long flags;
	struct page *page;

	kmem_cache_flush_cpus(c);
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

/* flush_family - on each CPU: give back its slabs of the root cache arg
 * and of the root's child caches (kmem_cache_destroy of a root). */
static void flush_family(void *arg)
{
	struct kmem_cache *root = arg, *c;
	unsigned long flags = spin_lock_irqsave(&slab_caches_lock);

	list_for_each_entry(c, &slab_caches, list)
		if (c == root || c->memcg_params.root_cache == root)
			flush_cpu_slab(c);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
}

void kmem_cache_destroy(struct kmem_cache *c)
{
	unsigned long flags;

	if (!c)
		return;
	if (is_builtin_cache(c))
		panic("kmem_cache_destroy: cache %s is built in", c->name);
	/* What CPUs hold counts as in use until it is taken back: for a
	 * root cache, of its child caches too, before they are checked. */
	if (!is_child_cache(c))
		smp_call_function_all(flush_family, c);
	kmem_cache_shrink(c);
	if (c->active_objs != 0)
		panic("kmem_cache_destroy: cache %s still has %lu objects in "
		      "use", c->name, c->active_objs);
	memcg_unregister_cache(c);  /* a root cache: its domains' copies */

	flags = spin_lock_irqsave(&slab_caches_lock);
	list_del_init(&c->list);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	kmem_cache_free(&kmem_cache_boot, c);
}

/* cpu_free_objects - objects on the CPUs' lists of c, read without
 * stopping them. */
static unsigned long cpu_free_objects(struct kmem_cache *c)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		n += READ_ONCE(c->cpu_slab[cpu].nr_free);
	return n;
}

unsigned long kmem_cache_in_use(struct kmem_cache *c)
{
	unsigned long active = READ_ONCE(c->active_objs);
	unsigned long held = cpu_free_objects(c);

	return active > held ? active - held : 0;
}

void get_slabinfo(struct kmem_cache *c, struct slabinfo *info)
{
	unsigned long flags = spin_lock_irqsave(&c->lock);
	unsigned long empty = 0, held = cpu_free_objects(c);
	struct page *page;

	list_for_each_entry(page, &c->slabs_free, lru)
		empty++;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		page = READ_ONCE(c->cpu_slab[cpu].page);
		if (page && page->slab_inuse ==
				    READ_ONCE(c->cpu_slab[cpu].nr_free))
			empty++;  /* a CPU slab with no object in use */
	}
	info->active_objs = c->active_objs > held ? c->active_objs - held : 0;
	info->num_objs = c->num_slabs * c->num;
	info->active_slabs = c->num_slabs > empty ? c->num_slabs - empty : 0;
	info->num_slabs = c->num_slabs;
	info->objsize = c->size;
	info->objperslab = c->num;
	info->pagesperslab = 1u << c->order;
	spin_unlock_irqrestore(&c->lock, flags);
}

/* --- check ---------------------------------------------------------------- */

struct check_out {
	char *buf;
	size_t size, len;
	int failures;
};

static void check_fail(struct check_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	o->failures++;
	if (o->len + 1 >= o->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n < o->size - o->len ? (size_t)n
						       : o->size - o->len - 1;
}

/* count_free - objects on a free list, at most limit + 1 (a cycle or a
 * corrupt list stops there). */
static unsigned long count_free(void *head, unsigned long limit)
{
	unsigned long n = 0;

	for (void *p = head; p && n <= limit; p = next_free(p))
		n++;
	return n;
}

/* check_slab - one slab's count against its own free list. */
static void check_slab(struct check_out *o, struct kmem_cache *c,
		       struct page *page, unsigned long *inuse)
{
	struct slab *slab = slab_of(page);
	unsigned long nfree = count_free(slab->freelist, c->num);

	if (!(page->flags & PG_slab) || slab->cache != c ||
	    page->slab_inuse + nfree != c->num)
		check_fail(o, "slab: cache %s: slab at pfn 0x%lx: %u objects "
			   "in use + %lu free on its list, of %u\n", c->name,
			   (unsigned long)page_to_pfn(page), page->slab_inuse,
			   nfree, c->num);
	*inuse += page->slab_inuse;
}

static void check_cache(struct check_out *o, struct kmem_cache *c)
{
	unsigned long flags = spin_lock_irqsave(&c->lock);
	struct list_head *lists[] = {&c->slabs_partial, &c->slabs_full,
				     &c->slabs_free};
	unsigned long inuse = 0, slabs = 0, held = 0;
	struct kmem_cache_cpu *cpu;
	struct page *page;

	for (unsigned int i = 0; i < 3; i++) {
		list_for_each_entry(page, lists[i], lru) {
			check_slab(o, c, page, &inuse);
			slabs++;
		}
	}
	for (unsigned int i = 0; i < NR_CPUS; i++) {
		cpu = &c->cpu_slab[i];
		page = READ_ONCE(cpu->page);
		held += READ_ONCE(cpu->nr_free);
		if (!page)
			continue;
		if (!(page->flags & PG_slab_cpu))
			check_fail(o, "slab: cache %s: CPU %u's slab is not "
				   "marked as a CPU slab\n", c->name, i);
		check_slab(o, c, page, &inuse);
		slabs++;
	}
	/* This CPU's list holds still: it is counted object by object. */
	cpu = this_cpu_slab(c);
	if (count_free(cpu->freelist, c->num) != cpu->nr_free)
		check_fail(o, "slab: cache %s: this CPU's list holds %lu "
			   "objects, its count says %lu\n", c->name,
			   count_free(cpu->freelist, c->num), cpu->nr_free);
	if (inuse != c->active_objs || slabs != c->num_slabs ||
	    held > c->active_objs)
		check_fail(o, "slab: cache %s: %lu objects in use (%lu of "
			   "them on CPU lists) in %lu slabs, but the slabs "
			   "count %lu objects in use and are %lu\n", c->name,
			   c->active_objs, held, c->num_slabs, inuse, slabs);
	spin_unlock_irqrestore(&c->lock, flags);
}

int slab_check(char *buf, size_t size)
{
	struct check_out o = {buf, size, 0, 0};
	unsigned long flags = spin_lock_irqsave(&slab_caches_lock);
	struct kmem_cache *c;

	if (size)
		buf[0] = '\0';
	list_for_each_entry(c, &slab_caches, list)
		check_cache(&o, c);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	return o.failures;
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
