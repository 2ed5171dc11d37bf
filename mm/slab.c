// SPDX-License-Identifier: MIT
/*
 * mm/slab.c - the slab allocator's caches and the slabs they are made of:
 * setting a cache up, creating and destroying it, growing it by a slab and
 * giving slabs back, making a slab a CPU's and taking it back (when it
 * runs dry, on shrink, destroy, a domain's removal, a CPU gone idle),
 * shrinking it, its statistics (Linux: mm/slab.c, mm/slab_common.c).
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
 * The allocator is in three files. This one holds the caches and their
 * slabs. Objects come and go in mm/slab_alloc.c: each CPU's own slab of a
 * cache, the fast and slow paths of an allocation and a free, and
 * kmalloc()/kfree() on top of them. The checks - `check`'s invariants,
 * and the poisoning of free objects under slab_debug - are
 * mm/slab_check.c. What the three share: mm/slab_internal.h.
 *
 * Accounting touches this file in one place: cache_grow() takes a slab's
 * pages through memcg_slab_alloc_pages(), which charges a child cache's
 * domain (the `caches` design), and nobody for a root cache. Which cache
 * serves an object, and (`objects`) which owner record pays for it, is
 * decided around the allocation in mm/slab_alloc.c.
 */
#include "mm/slab_internal.h"

#include <stdio.h>
#include <string.h>

#include "mm/memcg_hooks.h"

LIST_HEAD(slab_caches);
spinlock_t slab_caches_lock = SPINLOCK_INIT;
unsigned long nr_slab_pages;
bool slab_debug = DEBUG_POISON_DEFAULT;  /* on in the debug build */

/* The cache that kmem_cache_create takes struct kmem_caches from, and the
 * kmalloc caches: these exist from kmem_cache_init on. */
static struct kmem_cache kmem_cache_boot __cacheline_aligned;
struct kmem_cache kmalloc_caches[KMALLOC_NR_CACHES] __cacheline_aligned;

/* --- setting a cache up --------------------------------------------------- */

static inline size_t round_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

/*
 * fit - how many objects a slab of bytes holds; sets c->offset, the
 * first object's, after the header and (`objects`) the objects' owner
 * ids, 2 bytes each.
 */
static size_t fit(struct kmem_cache *c, size_t bytes)
{
	size_t ids = memcg_slab_objects() ? sizeof(uint16_t) : 0;
	size_t num = (bytes - sizeof(struct slab)) / (c->size + ids);

	c->offset = round_up(sizeof(struct slab) + num * ids, c->align);
	while (num && c->offset + num * c->size > bytes)
		c->offset = round_up(sizeof(struct slab) + --num * ids,
				     c->align);
	return num;
}

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
		size_t num = fit(c, bytes);
		size_t waste;

		if (num == 0)
			continue;
		waste = bytes - c->offset - num * c->size;
		best = order;
		if (waste * 8 <= bytes)
			break;
	}
	if (best > SLAB_MAX_ORDER)
		return false;
	c->order = best;
	c->num = fit(c, PAGE_SIZE << best);
	if (c->num > UINT16_MAX)  /* page->slab_inuse is 16 bits */
		c->num = UINT16_MAX;
	return true;
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
	c->line = (struct line_writer){0, 0};
	INIT_LIST_HEAD(&c->slabs_partial);
	INIT_LIST_HEAD(&c->slabs_full);
	INIT_LIST_HEAD(&c->slabs_free);
	c->object_size = size;
	c->size = round_up(size, align);
	c->align = align;
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

/*
 * cache_grow - a new slab from the buddy allocator, all objects free, on no
 * list yet; NULL if out of memory. Called without the cache lock.
 */
struct page *cache_grow(struct kmem_cache *c, gfp_t gfp)
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
	if (memcg_slab_objects())
		memset(slab->owner_ids, 0, c->num * sizeof(uint16_t));
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
void slab_release(struct kmem_cache *c, struct page *page)
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

/* --- a CPU's slab: taken, and given back ---------------------------------- */

/*
 * freeze - make page this CPU's slab: its free objects move to the CPU's
 * list, and count as in use in the slab's and the cache's counts. Also
 * takes the objects other CPUs freed to the CPU slab meanwhile. Cache
 * lock held, interrupts off.
 */
void freeze(struct kmem_cache *c, struct kmem_cache_cpu *cpu,
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
struct page *slab_place(struct kmem_cache *c, struct page *page,
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
struct page *unfreeze(struct kmem_cache *c, struct kmem_cache_cpu *cpu,
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

/* --- taking back the CPU slabs ------------------------------------------ */

/* give_back_cpu_slab - this CPU's slab of c back to the cache's lists,
 * an empty one kept on slabs_free: pages are not freed from an IPI.
 * Interrupts off. */
static void give_back_cpu_slab(struct kmem_cache *c)
{
	spin_lock(&c->lock);
	line_write(&c->line);
	unfreeze(c, this_cpu_slab(c), true);
	spin_unlock(&c->lock);
}

/* flush_cpu_slab - on each CPU (the IPI of kmem_cache_flush_cpus): its
 * slab of the cache given back. */
void flush_cpu_slab(void *arg)
{
	struct kmem_cache *c = arg;
	unsigned long flags = local_irq_save();

	give_back_cpu_slab(c);
	local_irq_restore(flags);
}

/*
 * kmem_cache_flush_cpus - take back every CPU's slab of c, by IPI, if any
 * CPU has one: a cache no CPU uses costs no IPI, so that a domain's child
 * caches, flushed when it is removed, can be destroyed anywhere later.
 */
void kmem_cache_flush_cpus(struct kmem_cache *c)
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

/*
 * A child cache keeps no empty slab (mm/slab_alloc.c) and comes and goes
 * with its domain, so only the roots are shrunk. They are looked up one
 * at a time under the lock and shrunk outside it (shrinking sends IPIs).
 * A root cache is destroyed only by the benchmarks and in-kernel tests,
 * never while this runs from a shell command.
 */
void kmem_cache_shrink_roots(void)
{
	for (size_t i = 0;; i++) {
		struct kmem_cache *c = NULL, *pos;
		unsigned long flags;
		size_t n = 0;

		flags = spin_lock_irqsave(&slab_caches_lock);
		list_for_each_entry(pos, &slab_caches, list) {
			if (is_child_cache(pos))
				continue;
			if (n++ == i) {
				c = pos;
				break;
			}
		}
		spin_unlock_irqrestore(&slab_caches_lock, flags);
		if (!c)
			return;
		kmem_cache_shrink(c);
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
	unsigned long flags = local_irq_save();

	spin_lock(&slab_caches_lock);
	list_for_each_entry(c, &slab_caches, list)
		if (c == root || c->memcg_params.root_cache == root)
			give_back_cpu_slab(c);
	spin_unlock(&slab_caches_lock);
	local_irq_restore(flags);
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

/* cpu_free_objects - the free objects on every CPU's lists of c. */
static unsigned long cpu_free_objects(struct kmem_cache *c)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		n += cpu_held(&c->cpu_slab[cpu]);
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
		if (page && page->slab_inuse == cpu_held(&c->cpu_slab[cpu]))
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

struct kmem_cache *kmem_cache_find(const char *name)
{
	struct kmem_cache *c, *found = NULL;
	unsigned long flags = spin_lock_irqsave(&slab_caches_lock);

	list_for_each_entry(c, &slab_caches, list) {
		if (!strcmp(c->name, name)) {
			found = c;
			break;
		}
	}
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	return found;
}
