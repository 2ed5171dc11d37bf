/* SPDX-License-Identifier: MIT */
/*
 * mm/slab.h - the slab allocator: small kernel objects (tasks, domains,
 * control-file nodes, ...) packed into pages, and kmalloc()/kfree().
 *
 * A cache (struct kmem_cache) hands out objects of one size. It takes
 * slabs - blocks of 2^order pages - from the buddy allocator and cuts each
 * into objects. Each CPU owns one slab of each cache it uses (its CPU
 * slab, as in Linux's SLUB) and serves allocations and frees of that
 * slab's objects from its own free list, with interrupts off and no lock.
 * Other slabs sit on the cache's lists, under its lock; a slab whose
 * objects are all free goes back to the buddy allocator (a root cache
 * keeps one). kmalloc() serves sizes up to KMALLOC_MAX_CACHE_SIZE from
 * caches of powers of two, and larger sizes straight from alloc_pages().
 *
 * Accounted caches (SLAB_ACCOUNT, and the kmalloc caches for kmalloc with
 * __GFP_KMEMCG) give each domain its own child cache, made on the domain's
 * first allocation, whose slabs are charged to that domain and hold only
 * its objects: see mm/memcg/memcg_slab.h. That is the default design,
 * `caches`; booted with slab_accounting=objects, no child cache is made:
 * every object is charged by the byte to its domain's owner record, and
 * its slab's header keeps the record's id (mm/memcg/obj_owner.h).
 *
 * The code: mm/slab.c (the caches and their slabs), mm/slab_alloc.c (the
 * CPU slabs, allocating and freeing objects, kmalloc), mm/slab_check.c
 * (`check`'s invariants, the poisoning of free objects).
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include <stddef.h>

#include "kernel/base/list.h"
#include "kernel/base/platform.h"
#include "kernel/base/spinlock.h"
#include "mm/gfp.h"
#include "mm/line_transfer.h"

/* kmem_cache_create flags */
#define SLAB_HWCACHE_ALIGN 0x1u  /* align objects to a cache line */
#define SLAB_PANIC         0x2u  /* panic if the cache cannot be created */
#define SLAB_ACCOUNT       0x4u  /* charge every object to the domain of the
				  * task allocating it (mm/memcg/memcg_slab.h)
				  */

#define KMALLOC_MIN_SIZE 8
#define KMALLOC_MAX_CACHE_SIZE 2048  /* larger kmallocs take whole pages */
#define KMALLOC_NR_CACHES 9          /* kmalloc-8 .. kmalloc-2048 */
#define KMEM_CACHE_NAME_MAX 64  /* with the NUL; longer names are cut */

struct mem_cgroup;

/*
 * memcg_cache_params - how a cache takes part in kernel-memory accounting
 * (Linux 2012: struct memcg_cache_params, cachep->memcg_params).
 *
 * A root cache (one made by kmem_cache_create, or a kmalloc cache) that
 * can be accounted has an id: its child caches sit in each domain's
 * memcg->view.slab_caches[id]. A child cache points to its domain and to
 * its
 * root cache, and has no id of its own.
 */
struct memcg_cache_params {
	int id;                        /* root cache: slot in slab_caches[],
					* -1 if never accounted */
	/* Root cache with an id: an allocation is accounted if
	 * (gfp | always) & when; both 0 otherwise. when is __GFP_KMEMCG,
	 * and so is always for a SLAB_ACCOUNT cache (one test on the fast
	 * path instead of three). */
	gfp_t always, when;
	struct mem_cgroup *memcg;      /* child cache: its domain, else NULL */
	bool dead;                     /* child cache of a removed domain: no
					* CPU keeps a slab of it */
	struct kmem_cache *root_cache; /* child cache: the cache it copies */
};

/*
 * kmem_cache_cpu - one CPU's slab of a cache (Linux: struct
 * kmem_cache_cpu). Only its CPU touches it, with interrupts off; a line
 * of its own, so that no other CPU writes it (the array is the first
 * member of struct kmem_cache, which is always cache-line aligned). The
 * objects on freelist all belong to page, and count as in use in the
 * cache's counts until the slab is given back to the lists (see
 * mm/slab_alloc.c).
 */
struct kmem_cache_cpu {
	void *freelist;         /* free objects this CPU hands out */
	struct page *page;      /* the CPU slab, or NULL */
	unsigned long nr_free;  /* objects on freelist */
	char pad[CACHELINE_SIZE - 3 * sizeof(void *)];
};

_Static_assert(sizeof(struct kmem_cache_cpu) == CACHELINE_SIZE,
	       "a CPU slab is one cache line");

struct kmem_cache {
	struct kmem_cache_cpu cpu_slab[NR_CPUS];
	spinlock_t lock;               /* protects the lists and counts */
	struct line_writer line;        /* counts the moves of this line (the
					* lock's) between CPUs, for slab_smp */
	/* Slabs, as their first page's struct page, linked by page->lru. */
	struct list_head slabs_partial; /* some objects free */
	struct list_head slabs_full;    /* no object free */
	struct list_head slabs_free;    /* no object in use: at most one */
	unsigned int object_size;      /* size asked for */
	unsigned int size;             /* object size with alignment padding */
	unsigned int align;
	unsigned int offset;           /* first object, from the slab start */
	unsigned int order;            /* each slab is 2^order pages */
	unsigned int num;              /* objects per slab */
	unsigned int flags;
	unsigned long active_objs;     /* objects in use or on CPU lists */
	unsigned long num_slabs;       /* slabs held, CPU slabs included */
	struct list_head list;         /* on slab_caches */
	struct memcg_cache_params memcg_params;
	char name[KMEM_CACHE_NAME_MAX];
};

/*
 * kmem_cache_create - a cache of objects of size bytes.
 * @name:  shown in slabinfo (copied)
 * @size:  object size, > 0
 * @align: object alignment (a power of two; 0: 8 bytes)
 * @flags: SLAB_HWCACHE_ALIGN, SLAB_PANIC, SLAB_ACCOUNT
 *
 * Returns the cache, or NULL if out of memory, size is too large for a
 * slab, or (SLAB_ACCOUNT) MEMCG_CACHES_MAX accounted caches exist already
 * (SLAB_PANIC: panics instead).
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align, unsigned int flags);

/*
 * kmem_cache_alloc - an object from the cache, or NULL if out of memory
 * (or over the domain's limit). gfp is passed to alloc_pages() when a new
 * slab is needed; __GFP_ZERO zeroes the object. An allocation from a
 * SLAB_ACCOUNT cache, or from a kmalloc cache with __GFP_KMEMCG, by a task
 * of an accounted domain comes from that domain's child cache (made now
 * if it has none); any other comes from the cache itself, whose slabs are
 * charged to nobody. Any context (with __GFP_ATOMIC where it applies).
 */
void *kmem_cache_alloc(struct kmem_cache *cache, gfp_t gfp);

/*
 * kmem_cache_free - give back an object of this cache. Panics if obj is not
 * an object of the cache, or (detectably) already free.
 */
void kmem_cache_free(struct kmem_cache *cache, void *obj);

/* kmem_cache_shrink - take back every CPU's slab of the cache (an IPI, if
 * a CPU has one) and give the cache's empty slabs back to the buddy
 * allocator. Process context, no lock held. */
void kmem_cache_shrink(struct kmem_cache *cache);

/* kmem_cache_shrink_roots - kmem_cache_shrink every root cache (Linux:
 * drop_slab, behind /proc/sys/vm/drop_caches): the slabs the caches keep
 * for their next allocations go back to the buddy allocator. Task
 * context, no locks held. */
void kmem_cache_shrink_roots(void);

/* kmem_cache_destroy - free an empty cache (panics if objects are still in
 * use, in it or, for a root cache, in a child cache of any domain). Empty
 * child caches of a root cache go with it; what CPUs hold of them is
 * taken back first. NULL: nothing is done. */
void kmem_cache_destroy(struct kmem_cache *cache);

/*
 * kmalloc - size bytes of kernel memory, aligned to 8 bytes (to a page
 * above KMALLOC_MAX_CACHE_SIZE), or NULL. size 0 gives a minimal object.
 * gfp as for kmem_cache_alloc; a large kmalloc passes it to alloc_pages.
 */
void *kmalloc(size_t size, gfp_t gfp);

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

/* kfree - give back memory from kmalloc (or kmem_cache_alloc). NULL: no-op.
 * Panics if p was not returned by them. */
void kfree(const void *p);

/* ksize - the usable size of the kmalloc'd block p (at least what was
 * asked for). */
size_t ksize(const void *p);

/* --- statistics, for /proc/slabinfo and /proc/meminfo -------------------- */

/* All caches, child caches included, in creation order, protected by
 * slab_caches_lock. */
extern struct list_head slab_caches;
extern spinlock_t slab_caches_lock;

/* nr_slab_pages - pages held by all caches (meminfo's "Slab:"). */
extern unsigned long nr_slab_pages;

/* slabinfo - one cache's line of /proc/slabinfo (Linux's fields). */
struct slabinfo {
	unsigned long active_objs;
	unsigned long num_objs;
	unsigned long active_slabs;  /* slabs with an object in use */
	unsigned long num_slabs;
	unsigned int objsize;        /* size with padding */
	unsigned int objperslab;
	unsigned int pagesperslab;
};

/*
 * slab_cpu_idle - this CPU is going idle: it gives back each of its CPU
 * slabs that has no object in use, so that an idle machine holds no slab
 * it does not need (empty slabs go back to the buddy allocator, but one
 * per root cache). The idle loop calls it once each time the CPU runs
 * out of work. Interrupts on, no lock held.
 */
void slab_cpu_idle(void);

/* kmem_cache_in_use - objects of cache in use: handed out, not on any
 * free list (CPU lists read without stopping their CPUs). */
unsigned long kmem_cache_in_use(struct kmem_cache *cache);

/* get_slabinfo - a snapshot of cache's counts; the objects on CPU lists
 * are free (read without stopping their CPUs: exact when they are idle). */
void get_slabinfo(struct kmem_cache *cache, struct slabinfo *info);

/* kmem_cache_find - the cache that /proc/slabinfo calls name (a child
 * cache: "root(domain)"), or NULL. For the tests and benchmarks: the
 * caller knows the cache outlives its use (a built-in cache, or one it
 * made). */
struct kmem_cache *kmem_cache_find(const char *name);

/*
 * slab_check - the slab allocator's invariants, for `check`: in every
 * cache, each slab's count of objects in use matches its free list, the
 * counts add up to the cache's (objects held on CPU lists included), and
 * each CPU slab is a slab of its cache. One line per failure is appended
 * to buf (NUL-terminated, at most size bytes in all); returns the number
 * of failures.
 */
int slab_check(char *buf, size_t size);

/* slab_wants_account - does an allocation from cache with gfp ask to be
 * accounted? Always from a SLAB_ACCOUNT cache; from a kmalloc cache with
 * __GFP_KMEMCG; never from a cache without an id. */
static inline bool slab_wants_account(const struct kmem_cache *cache,
				      gfp_t gfp)
{
	return (gfp | cache->memcg_params.always) & cache->memcg_params.when;
}

/* is_child_cache - is this a domain's child cache of an accounted cache? */
static inline bool is_child_cache(const struct kmem_cache *cache)
{
	return cache->memcg_params.memcg != NULL;
}

/*
 * kmem_cache_create_child - for mm/memcg/memcg_slab.c: a copy of root (same
 * object size, alignment and slab order) called name, for one domain:
 * memcg_params.memcg = memcg, root_cache = root. It is on slab_caches and
 * keeps no empty slab but its CPU slabs (see slab_place, mm/slab.c).
 * NULL if out of memory.
 */
struct kmem_cache *kmem_cache_create_child(struct kmem_cache *root,
					   struct mem_cgroup *memcg,
					   const char *name);

/*
 * slab_debug - debug option, off by default: free objects are filled with
 * SLAB_POISON_FREE and checked when handed out again (a use after free
 * panics), and kmem_cache_free searches the slab's free list and its CPU's
 * list for the object (every double free panics, not only an immediate
 * one); for that, every allocation and free takes the cache lock, CPU
 * lists included. Set it before mm_init.
 */
extern bool slab_debug;
#define SLAB_POISON_FREE 0x6b

/* kmem_cache_init - (re)set the slab allocator: no caches but the
 * kmalloc caches and the cache of caches, all empty. Called by mm_init. */
void kmem_cache_init(void);

#endif
