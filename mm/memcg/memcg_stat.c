// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_stat.c - memory.stat, the root's usage figures, and the census
 * of mem_map that both they and `check` (mm/memcg/memcg_check.c) rest on.
 *
 * The census walks mem_map block by block, as the buddy allocator lays it
 * out (mm/buddy.c): a free block's first page has PG_buddy and its order,
 * a page on a per-CPU list PG_pcp, an allocated block's first page
 * PG_head and its order; the other pages of a block have no flag of
 * their own, and are stepped over. For an allocated block:
 *
 *   PG_kmemcg  kernel memory charged to page->memcg: its kmem and res
 *              counters, and those of the ancestors they are charged to,
 *              owe the block's bytes
 *   PG_user    user memory charged to page->memcg: its res counters do
 *   neither    kernel memory charged to nobody (the root's own)
 *
 * and each CPU's stock owes its charge to its domain's counters: its
 * nr_pages to res, its nr_kmem to res and kmem (docs/interface.md). The
 * walk reads other CPUs' pages without locks: exact when nothing is being
 * allocated meanwhile, approximate otherwise.
 */
#include "mm/memcg/memcg_stat.h"

#include <errno.h>

#include "mm/buddy.h"
#include "mm/memcg/memcontrol.h"
#include "mm/page.h"
#include "mm/memcg/obj_owner.h"
#include "mm/memcg/stock.h"
#include "mm/memcg/user_memory.h"
#include "mm/slab.h"

/* Serialises users of the scan_* fields of the domains. */
static spinlock_t census_lock = SPINLOCK_INIT;

/* set_slot - where ptr's search starts in the census's set. */
static size_t set_slot(const struct memcg_census *census, const void *ptr)
{
	return (size_t)(((uintptr_t)ptr >> 4) * 0x9e3779b97f4a7c15ull >> 32) &
	       census->set_mask;
}

struct mem_cgroup *memcg_census_find(const struct memcg_census *census,
				     const void *ptr)
{
	size_t i;

	if (!ptr)
		return NULL;
	for (i = set_slot(census, ptr); census->set[i];
	     i = (i + 1) & census->set_mask)
		if (census->set[i] == ptr)
			return census->set[i];
	return NULL;
}

/*
 * census_hash - put every domain of the census in its set: a table at
 * least twice as large as the domains are many, so that a look-up probes
 * about one slot. Linear in the domains, where sorting them to search
 * them was not (at ten thousand domains the sort was 80% of memory.stat).
 */
static int census_hash(struct memcg_census *census)
{
	size_t size = 16;

	while (size < 2 * census->nr)
		size *= 2;
	census->set = kzalloc(size * sizeof(*census->set), GFP_KERNEL);
	if (!census->set)
		return -ENOMEM;
	census->set_mask = size - 1;
	for (size_t n = 0; n < census->nr; n++) {
		size_t i = set_slot(census, census->all[n]);

		while (census->set[i])
			i = (i + 1) & census->set_mask;
		census->set[i] = census->all[n];
	}
	return 0;
}

/* owe - bytes charged through memcg: add them to every counter of its
 * chain(s), as a charge would. The root's counters are never charged. */
static void owe(struct mem_cgroup *memcg, int64_t bytes, bool kmem)
{
	if (mem_cgroup_is_root(memcg))
		return;
	for (struct res_counter *c = &memcg->res; c; c = c->parent)
		mem_cgroup_from_res(c)->scan_res += bytes;
	if (kmem)
		for (struct res_counter *c = &memcg->kmem; c; c = c->parent)
			mem_cgroup_from_kmem(c)->scan_kmem += bytes;
}

/* census_block - sort one allocated block of n pages. */
static void census_block(struct memcg_census *census, uint64_t pfn,
			 uint32_t flags, unsigned long n, void *owner)
{
	struct mem_cgroup *memcg;

	if (!(flags & (PG_kmemcg | PG_user))) {
		census->unaccounted_pages += n;
		root_mem_cgroup->scan_kmem_pages += n;
		if (flags & PG_slab)
			root_mem_cgroup->scan_slab_pages += n;
		return;
	}
	memcg = memcg_census_find(census, owner);
	if (!memcg) {
		if (!census->unknown_pages)
			census->first_unknown_pfn = pfn;
		census->unknown_pages += n;
		return;
	}
	if (flags & PG_kmemcg) {
		census->kmem_pages += n;
		if (mem_cgroup_is_root(memcg))
			census->root_kmem_pages += n;
		memcg->scan_kmem_pages += n;
		if (flags & PG_slab)
			memcg->scan_slab_pages += n;
		owe(memcg, (int64_t)n * PAGE_SIZE, true);
	} else {
		census->user_pages += n;
		memcg->scan_user_pages += n;
		owe(memcg, (int64_t)n * PAGE_SIZE, false);
	}
}

static void census_walk(struct memcg_census *census)
{
	uint64_t pfn = 0;

	while (pfn < max_pfn) {
		struct page *page = pfn_to_page(pfn);
		uint32_t flags = READ_ONCE(page->flags);
		unsigned int order = READ_ONCE(page->order);
		unsigned long n = 1ul << (order <= MAX_ORDER ? order : 0);

		if (flags & PG_reserved) {
			census->reserved_pages++;
			pfn++;
		} else if (flags & PG_pcp) {
			census->free_pages++;
			pfn++;
		} else if ((flags & (PG_buddy | PG_head)) &&
			   order <= MAX_ORDER && pfn + n <= max_pfn) {
			if (flags & PG_buddy)
				census->free_pages += n;
			else
				census_block(census, pfn, flags, n,
					     READ_ONCE(page->memcg));
			pfn += n;
		} else {
			if (!census->stray_pages)
				census->first_stray_pfn = pfn;
			census->stray_pages++;
			pfn++;
		}
	}

	/* The stocks: charged, used by no page yet. Only compared with the
	 * domains of the snapshot, never dereferenced (mm/memcg/stock.c). */
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct memcg_stock_pcp *stock = memcg_stock_of(cpu);
		struct mem_cgroup *cached = READ_ONCE(stock->cached);
		unsigned int nr = READ_ONCE(stock->nr_pages);
		unsigned int nr_kmem = READ_ONCE(stock->nr_kmem);
		struct mem_cgroup *memcg;

		if (!cached)
			continue;
		memcg = memcg_census_find(census, cached);
		if (!memcg) {
			census->unknown_stocks++;
			continue;
		}
		owe(memcg, (int64_t)nr * PAGE_SIZE, false);
		owe(memcg, (int64_t)nr_kmem * PAGE_SIZE, true);
	}
}

/* census_owner - an owner record's pages are owed by its domain's
 * counters, and its live objects are the domain's slab bytes. */
static void census_owner(struct obj_owner *owner, void *arg)
{
	struct memcg_census *census = arg;
	struct mem_cgroup *memcg = memcg_census_find(census, owner->memcg);

	if (!memcg) {
		census->unknown_owners++;
		return;
	}
	owe(memcg, (int64_t)owner->nr_pages * PAGE_SIZE, true);
	memcg->scan_owner_pages += owner->nr_pages;
	memcg->scan_slab_bytes += owner->scan_bytes;
}

int memcg_census_take(struct memcg_census *census)
{
	*census = (struct memcg_census){0};
	census->all = mem_cgroup_snapshot(&census->nr);
	if (!census->all)
		return -ENOMEM;
	if (census_hash(census)) {
		mem_cgroup_snapshot_put(census->all, census->nr);
		census->all = NULL;
		census->nr = 0;
		return -ENOMEM;
	}

	spin_lock(&census_lock);
	for (size_t i = 0; i < census->nr; i++) {
		struct mem_cgroup *memcg = census->all[i];

		memcg->scan_res = 0;
		memcg->scan_kmem = 0;
		memcg->scan_kmem_pages = 0;
		memcg->scan_user_pages = 0;
		memcg->scan_slab_pages = 0;
		memcg->scan_slab_bytes = 0;
		memcg->scan_owner_pages = 0;
	}
	census_walk(census);
	if (memcg_slab_objects())
		census->unowned_bytes = obj_owner_scan(census_owner, census);
	return 0;
}

void memcg_census_release(struct memcg_census *census)
{
	spin_unlock(&census_lock);
	mem_cgroup_snapshot_put(census->all, census->nr);
	kfree(census->set);
	census->all = NULL;
	census->set = NULL;
	census->nr = 0;
}

/* --- the numbers of the control files ------------------------------------- */

/* drain_for_reading - give back what CPUs hold in stock for memcg's
 * subtree, so that the usage shown is what pages use: an IPI, only if
 * some stock holds any; in `objects` always, as the byte stocks are not
 * counted from here. */
static void drain_for_reading(struct mem_cgroup *memcg, bool kmem)
{
	if (!in_interrupt() && (memcg_slab_objects() ||
				memcg_stock_pages_subtree(memcg, kmem)))
		drain_all_stock(memcg);
}

void mem_cgroup_reset_max(struct mem_cgroup *memcg, bool kmem)
{
	drain_for_reading(memcg, kmem);
	res_counter_reset_max(kmem ? &memcg->kmem : &memcg->res);
}

uint64_t mem_cgroup_read_counter(struct mem_cgroup *memcg, bool kmem,
				 enum res_member member)
{
	uint64_t used;

	if (!mem_cgroup_is_root(memcg)) {
		if (member == RES_USAGE)
			drain_for_reading(memcg, kmem);
		return res_counter_read_u64(kmem ? &memcg->kmem : &memcg->res,
					    member);
	}
	switch (member) {
	case RES_USAGE:
	case RES_MAX_USAGE:
		used = totalram_pages - nr_free_pages();
		if (kmem) {
			unsigned long user = user_memory_pages();

			used = used > user ? used - user : 0;
		}
		return used * PAGE_SIZE;
	case RES_LIMIT:
		return RES_COUNTER_MAX;
	case RES_FAILCNT:
		return 0;
	}
	return 0;
}

/* is_descendant - is memcg in the subtree of top (itself included)? */
static bool is_descendant(struct mem_cgroup *memcg, struct mem_cgroup *top)
{
	for (; memcg; memcg = memcg->parent)
		if (memcg == top)
			return true;
	return false;
}

int mem_cgroup_read_stat(struct mem_cgroup *memcg, struct mem_cgroup_stat *st)
{
	struct memcg_census census;
	int64_t min_limit = RES_COUNTER_MAX, min_kmem = RES_COUNTER_MAX;

	if (memcg_census_take(&census))
		return -ENOMEM;
	*st = (struct mem_cgroup_stat){0};
	for (size_t i = 0; i < census.nr; i++) {
		struct mem_cgroup *m = census.all[i];
		uint64_t cache = (uint64_t)READ_ONCE(m->nr_cache) * PAGE_SIZE;
		uint64_t rss = (uint64_t)READ_ONCE(m->nr_rss) * PAGE_SIZE;
		uint64_t kmem = (uint64_t)(m->scan_kmem_pages +
					   m->scan_owner_pages) * PAGE_SIZE;
		uint64_t stack = (uint64_t)READ_ONCE(m->nr_kernel_stack) *
				 PAGE_SIZE;
		/* Whole pages of its child caches (`caches`), or its
		 * records' objects (`objects`). */
		uint64_t slab = (uint64_t)m->scan_slab_pages * PAGE_SIZE +
				m->scan_slab_bytes;
		uint64_t stock = (uint64_t)memcg_stock_pages(m) *
				 PAGE_SIZE;

		if (m == memcg) {
			st->cache = cache;
			st->rss = rss;
			st->kmem = kmem;
			st->kernel_stack = stack;
			st->slab = slab;
			st->stock = stock;
		}
		if (is_descendant(m, memcg)) {
			st->total_cache += cache;
			st->total_rss += rss;
			st->total_kmem += kmem;
			st->total_kernel_stack += stack;
			st->total_slab += slab;
			st->total_stock += stock;
		}
	}
	memcg_census_release(&census);

	/* The limits that apply: along the chain of counters charged. */
	for (struct res_counter *c = &memcg->res; c; c = c->parent)
		if (READ_ONCE(c->limit) < min_limit)
			min_limit = READ_ONCE(c->limit);
	for (struct res_counter *c = &memcg->kmem; c; c = c->parent)
		if (READ_ONCE(c->limit) < min_kmem)
			min_kmem = READ_ONCE(c->limit);
	st->hierarchical_memory_limit = (uint64_t)min_limit;
	st->hierarchical_kmem_limit = (uint64_t)min_kmem;
	return 0;
}

/*
 * Every domain at once, dying ones included, each held by a reference:
 * what memory.stat and `check` walk, without holding memcg_list_lock
 * meanwhile.
 */

/* mem_cgroup_tryget - take a reference unless the count is already 0 (the
 * domain is being freed): for walks of memcg_all_list. */
static bool mem_cgroup_tryget(struct mem_cgroup *memcg)
{
	int old = __atomic_load_n(&memcg->refcnt, __ATOMIC_RELAXED);

	do {
		if (old <= 0)
			return false;
	} while (!__atomic_compare_exchange_n(&memcg->refcnt, &old, old + 1,
					      true, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	return true;
}

struct mem_cgroup **mem_cgroup_snapshot(size_t *nr)
{
	struct mem_cgroup **all, *memcg;
	unsigned long flags;
	size_t cap, n;
	bool overflow;

	for (;;) {
		/* Count, allocate (not under the lock), then fill; if domains
		 * were made meanwhile and do not fit, start again. */
		n = 0;
		flags = spin_lock_irqsave(&memcg_list_lock);
		list_for_each_entry(memcg, &memcg_all_list, all_node)
			n++;
		spin_unlock_irqrestore(&memcg_list_lock, flags);
		cap = n + 8;
		all = kmalloc(cap * sizeof(*all), GFP_KERNEL);
		if (!all) {
			*nr = 0;
			return NULL;
		}
		n = 0;
		overflow = false;
		flags = spin_lock_irqsave(&memcg_list_lock);
		list_for_each_entry(memcg, &memcg_all_list, all_node) {
			if (n == cap) {
				overflow = true;
				break;
			}
			if (mem_cgroup_tryget(memcg))
				all[n++] = memcg;
		}
		spin_unlock_irqrestore(&memcg_list_lock, flags);
		if (!overflow) {
			*nr = n;
			return all;
		}
		mem_cgroup_snapshot_put(all, n);
	}
}

void mem_cgroup_snapshot_put(struct mem_cgroup **all, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		mem_cgroup_put(all[i]);
	kfree(all);
}
