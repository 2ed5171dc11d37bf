// SPDX-License-Identifier: MIT
/*
 * mm/slab_check.c - the slab allocator checking itself: the invariants
 * that `check` verifies in every cache (slab_check), and the debug
 * build's poisoning of free objects: the poison put on an object when it
 * is freed, and checked when it is handed out again (Linux: SLUB's
 * debugging, in mm/slub.c). The search for double frees is part of the
 * free path, in mm/slab_alloc.c.
 *
 * slab_debug (the debug build) sends every allocation and free through
 * the lock, so that poisoning and the double-free search see every CPU's
 * list at rest; check (slab_check) counts the objects on CPU lists.
 */
#include "mm/slab_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mm/memcg_hooks.h"

/* --- poisoning (slab_debug) ----------------------------------------------- */

void poison_object(struct kmem_cache *c, void *obj)
{
	/* the first word is the free-list link */
	memset((char *)obj + sizeof(void *), SLAB_POISON_FREE,
	       c->size - sizeof(void *));
}

__noinline void
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

/* check_free_ids - in `objects`, a free object has no owner: each object
 * on list has the owner id 0. */
static void check_free_ids(struct check_out *o, struct kmem_cache *c,
			   struct slab *slab, void *list)
{
	unsigned long n = 0;

	for (void *p = list; p && n <= c->num; p = next_free(p), n++) {
		if (*slab_owner_id(c, slab, p) != 0) {
			check_fail(o, "slab: cache %s: free object %p has "
				   "owner id %u, not 0\n", c->name, p,
				   *slab_owner_id(c, slab, p));
			return;
		}
	}
}

/* check_slab - one slab's count against its own free list, whose
 * objects (`objects`) have no owner. */
static void check_slab(struct check_out *o, struct kmem_cache *c,
		       struct page *page, unsigned long *inuse)
{
	struct slab *slab = slab_of(page);
	unsigned long nfree = count_free(slab->freelist, c->num);

	if (memcg_slab_objects())
		check_free_ids(o, c, slab, slab->freelist);
	if (!(page->flags & PG_slab) || slab->cache != c ||
	    page->slab_inuse + nfree != c->num)
		check_fail(o, "slab: cache %s: slab at pfn 0x%lx: %u objects "
			   "in use + %lu free on its list, of %u\n", c->name,
			   (unsigned long)page_to_pfn(page), page->slab_inuse,
			   nfree, c->num);
	*inuse += page->slab_inuse;
}

/* check_this_cpu - this CPU's list holds still: it is counted object by
 * object, against nr_free. */
static void check_this_cpu(struct check_out *o, struct kmem_cache *c)
{
	struct kmem_cache_cpu *cpu = this_cpu_slab(c);
	unsigned long free = count_free(cpu->freelist, c->num);

	if (free != cpu->nr_free)
		check_fail(o, "slab: cache %s: this CPU's list holds %lu "
			   "free objects, its count says %lu\n", c->name, free,
			   cpu->nr_free);
	if (memcg_slab_objects() && cpu->page)
		check_free_ids(o, c, slab_of(cpu->page), cpu->freelist);
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
		held += cpu_held(cpu);
		if (!page)
			continue;
		if (!(page->flags & PG_slab_cpu))
			check_fail(o, "slab: cache %s: CPU %u's slab is not "
				   "marked as a CPU slab\n", c->name, i);
		check_slab(o, c, page, &inuse);
		slabs++;
	}
	check_this_cpu(o, c);
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

/* --- the owners of objects (`objects`) ------------------------------------ */

/* owners_in_slab - fn for each object of the slab that has an owner. */
static void owners_in_slab(struct kmem_cache *c, struct page *page,
			   void (*fn)(uint16_t, unsigned int, void *),
			   void *arg)
{
	struct slab *slab = slab_of(page);

	for (unsigned int i = 0; i < c->num; i++)
		if (READ_ONCE(slab->owner_ids[i]))
			fn(READ_ONCE(slab->owner_ids[i]), c->size, arg);
}

void slab_owner_walk(void (*fn)(uint16_t owner_id, unsigned int bytes,
				void *arg), void *arg)
{
	unsigned long flags = spin_lock_irqsave(&slab_caches_lock);
	struct kmem_cache *c;
	struct page *page;

	if (!memcg_slab_objects()) {
		spin_unlock_irqrestore(&slab_caches_lock, flags);
		return;
	}
	list_for_each_entry(c, &slab_caches, list) {
		struct list_head *lists[] = {&c->slabs_partial, &c->slabs_full,
					     &c->slabs_free};

		spin_lock(&c->lock);
		for (unsigned int i = 0; i < 3; i++)
			list_for_each_entry(page, lists[i], lru)
				owners_in_slab(c, page, fn, arg);
		for (unsigned int i = 0; i < NR_CPUS; i++) {
			page = READ_ONCE(c->cpu_slab[i].page);
			if (page)
				owners_in_slab(c, page, fn, arg);
		}
		spin_unlock(&c->lock);
	}
	spin_unlock_irqrestore(&slab_caches_lock, flags);
}
