// SPDX-License-Identifier: MIT
/*
 * mm/memcg/memcg_check.c - the invariants of docs/interface.md, checked over
 * every domain and every page: what `check` prints.
 *
 * The census (mm/memcg/memcg_stat.c) recomputes from mem_map and the stocks
 * what each counter should hold; this file compares, and also walks the tree
 * for what only it knows (kmem_accounted, tasks). Each failure is a line naming
 * the domain and the invariant, as
 *
 *   /cgroup/A: kmem usage 20480 bytes, but its kernel pages + kmem stocked
 *   on CPUs are 16384 bytes
 */
#include "mm/memcg/memcg_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel/task/task.h"
#include "mm/buddy.h"
#include "mm/memcg/memcg_stat.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/obj_owner.h"
#include "mm/memcg/stock.h"

/* Room kept at the end of the buffer for the "N more" line. */
#define CHECK_TAIL 64

struct check_report {
	char *buf;
	size_t size, len;
	int failures, dropped;
};

static void __attribute__((format(printf, 2, 3)))
fail(struct check_report *r, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	r->failures++;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	if (r->len + n + 2 + CHECK_TAIL > r->size) {
		r->dropped++;
		return;
	}
	memcpy(r->buf + r->len, line, n);
	r->len += n;
	r->buf[r->len++] = '\n';
	r->buf[r->len] = '\0';
}

/* check_counter - usage >= 0, usage <= limit, max_usage >= usage. */
static void check_counter(struct check_report *r, const char *path,
			  const char *name, struct res_counter *c)
{
	int64_t usage = READ_ONCE(c->usage), limit = READ_ONCE(c->limit);
	int64_t max = READ_ONCE(c->max_usage);

	if (usage < 0)
		fail(r, "%s: %s usage is negative: %lld bytes", path, name,
		     (long long)usage);
	if (usage > limit)
		fail(r, "%s: %s usage %lld bytes is above its limit %lld",
		     path, name, (long long)usage, (long long)limit);
	if (max < usage)
		fail(r, "%s: %s max_usage %lld bytes is below its usage %lld",
		     path, name, (long long)max, (long long)usage);
}

static void check_domain(struct check_report *r, struct mem_cgroup *memcg,
			 unsigned long *dying)
{
	char path[MEMCG_PATH_MAX];
	int64_t res = res_counter_usage(&memcg->res);
	int64_t kmem = res_counter_usage(&memcg->kmem);
	long rss = READ_ONCE(memcg->nr_rss), cache = READ_ONCE(memcg->nr_cache);
	long stack = READ_ONCE(memcg->nr_kernel_stack);

	mem_cgroup_path(memcg, path, sizeof(path));
	if (memcg->dying) {
		(*dying)++;
		if (memcg_stock_pages(memcg))
			fail(r, "%s: removed, but %lu pages of it are still in "
			     "CPU stocks", path,
			     memcg_stock_pages(memcg));
	}
	if (rss < 0 || cache < 0 || stack < 0)
		fail(r, "%s: negative page count: rss %ld, cache %ld, "
		     "kernel_stack %ld", path, rss, cache, stack);
	if (rss + cache != memcg->scan_user_pages)
		fail(r, "%s: counts %ld user pages (rss %ld + cache %ld), but "
		     "%ld pages are charged to it as user memory", path,
		     rss + cache, rss, cache, memcg->scan_user_pages);
	if (READ_ONCE(memcg->refcnt) <= 0)
		fail(r, "%s: reference count %d", path,
		     READ_ONCE(memcg->refcnt));

	if (mem_cgroup_is_root(memcg)) {
		if (res || kmem)
			fail(r, "%s: the root was charged: res usage %lld, "
			     "kmem usage %lld bytes", path, (long long)res,
			     (long long)kmem);
		return;
	}
	/* Each kernel page charged to it, owned or stocked, holds one. */
	if (READ_ONCE(memcg->refcnt) < memcg->scan_kmem_pages +
					   (long)memcg_stock_kmem_pages(memcg))
		fail(r, "%s: reference count %d, below its %ld kernel pages "
		     "owned + %lu stocked (each holds a reference)", path,
		     READ_ONCE(memcg->refcnt), memcg->scan_kmem_pages,
		     memcg_stock_kmem_pages(memcg));
	if (kmem != memcg->scan_kmem)
		fail(r, "%s: kmem usage %lld bytes, but its kernel pages + "
		     "kmem stocked on CPUs are %lld bytes", path,
		     (long long)kmem, (long long)memcg->scan_kmem);
	if (res != memcg->scan_res)
		fail(r, "%s: res usage %lld bytes, but user + kmem + stocked "
		     "bytes are %lld", path, (long long)res,
		     (long long)memcg->scan_res);
	check_counter(r, path, "res", &memcg->res);
	check_counter(r, path, "kmem", &memcg->kmem);
}

/*
 * check_owner - `objects`: an owner record's pages are what its objects,
 * the byte stocks and its leftover hold, and the domain it charges is a
 * live one (a removed domain's records were handed to its parent).
 * obj_owner_lock held (obj_owner_scan).
 */
static void check_owner(struct obj_owner *owner, void *arg)
{
	struct check_report *r = arg;
	uint64_t held = owner->scan_bytes + owner->scan_stocked +
			owner->nr_bytes;
	char path[MEMCG_PATH_MAX];

	mem_cgroup_path(owner->memcg, path, sizeof(path));
	if ((uint64_t)owner->nr_pages * PAGE_SIZE != held)
		fail(r, "%s: owner record %u: %lu pages charged (%llu bytes), "
		     "but its objects (%llu) + stocked (%llu) + left over "
		     "(%u) are %llu bytes", path, owner->id,
		     owner->nr_pages,
		     (unsigned long long)owner->nr_pages * PAGE_SIZE,
		     (unsigned long long)owner->scan_bytes,
		     (unsigned long long)owner->scan_stocked, owner->nr_bytes,
		     (unsigned long long)held);
	if (owner->nr_bytes >= PAGE_SIZE)
		fail(r, "%s: owner record %u keeps %u bytes left over, a "
		     "whole page or more", path, owner->id,
		     owner->nr_bytes);
	if (__atomic_load_n(&owner->memcg->dying, __ATOMIC_ACQUIRE))
		fail(r, "%s: removed, but owner record %u still charges it "
		     "(it should have moved to the parent)", path,
		     owner->id);
}

/* check_tree - what only the tree knows. memcg_tree_lock held. */
static void check_tree(struct check_report *r)
{
	unsigned long visible = 0;
	struct mem_cgroup *pos;

	for_each_mem_cgroup_tree(pos, root_mem_cgroup) {
		bool parent_accounted = parent_mem_cgroup(pos) &&
					memcg_kmem_is_accounted(pos->parent);
		bool has_parent_bit = pos->view.kmem_accounted &
				      (1ul << KMEM_ACCOUNTED_PARENT);
		char path[MEMCG_PATH_MAX];
		unsigned int tasks = 0;
		struct task *task;

		visible++;
		mem_cgroup_path(pos, path, sizeof(path));
		if (pos->dying)
			fail(r, "%s: dying, but still in the tree", path);
		if (has_parent_bit != parent_accounted)
			fail(r, "%s: KMEM_ACCOUNTED_PARENT is %d, but its "
			     "parent is %saccounted", path, has_parent_bit,
			     parent_accounted ? "" : "not ");
		list_for_each_entry(task, &pos->tasks, memcg_node) {
			tasks++;
			if (task->memcg != pos)
				fail(r, "%s: task %d is on its list but in "
				     "another domain", path, task->pid);
			if (task->kmem_payer != (task->active_memcg ?
						 task->active_memcg : pos))
				fail(r, "%s: task %d: kmem_payer is neither "
				     "its active_memcg nor its domain", path,
				     task->pid);
		}
		if (memcg_slab_objects() && !mem_cgroup_is_root(pos) &&
		    (!pos->obj_owner ||
		     READ_ONCE(pos->obj_owner->memcg) != pos))
			fail(r, "%s: its own owner record is missing or "
			     "charges another domain", path);
		if (tasks != pos->nr_tasks)
			fail(r, "%s: %u tasks on its list, nr_tasks %u", path,
			     tasks, pos->nr_tasks);
	}
	if (visible != mem_cgroup_nr_domains())
		fail(r, "%lu domains in the tree, nr_domains %lu", visible,
		     mem_cgroup_nr_domains());
}

int memcg_check(char *buf, size_t size)
{
	struct check_report r = {buf, size, 0, 0, 0};
	struct memcg_census census;
	unsigned long dying = 0, total;

	buf[0] = '\0';
	if (memcg_census_take(&census)) {
		fail(&r, "out of memory for the census of domains");
		return r.failures;
	}
	for (size_t i = 0; i < census.nr; i++)
		check_domain(&r, census.all[i], &dying);

	/* Every page is in exactly one place. */
	if (census.stray_pages)
		fail(&r, "%lu frames are in no block, free, allocated or "
		     "reserved (the first at pfn 0x%lx)", census.stray_pages,
		     (unsigned long)census.first_stray_pfn);
	if (census.unknown_pages)
		fail(&r, "%lu pages are charged to something that is not a "
		     "domain (the first at pfn 0x%lx)", census.unknown_pages,
		     (unsigned long)census.first_unknown_pfn);
	if (census.root_kmem_pages)
		fail(&r, "%lu kernel pages are charged to the root",
		     census.root_kmem_pages);
	if (census.unknown_owners)
		fail(&r, "%lu owner records charge something that is not a "
		     "domain", census.unknown_owners);
	if (census.unowned_bytes)
		fail(&r, "%llu bytes of objects name an owner record that "
		     "does not exist",
		     (unsigned long long)census.unowned_bytes);
	if (census.unknown_stocks)
		fail(&r, "%lu CPU stocks name something that is not a domain",
		     census.unknown_stocks);
	total = census.kmem_pages + census.user_pages + census.free_pages +
		census.unaccounted_pages + census.unknown_pages;
	if (total != totalram_pages)
		fail(&r, "pages charged to domains (%lu kernel + %lu user) + "
		     "free (%lu) + charged to none (%lu) = %lu, but there are "
		     "%lu", census.kmem_pages, census.user_pages,
		     census.free_pages, census.unaccounted_pages, total,
		     totalram_pages);
	if (census.free_pages != nr_free_pages())
		fail(&r, "%lu pages are on the free lists, the allocator "
		     "counts %lu", census.free_pages, nr_free_pages());
	if (dying != mem_cgroup_nr_dying())
		fail(&r, "%lu removed domains are pinned, nr_dying_descendants "
		     "%lu", dying, mem_cgroup_nr_dying());
	memcg_census_release(&census);
	if (memcg_slab_objects())
		obj_owner_scan(check_owner, &r);

	memcg_tree_lock();
	check_tree(&r);
	memcg_tree_unlock();

	if (r.dropped)
		r.len += snprintf(buf + r.len, size - r.len,
				  "... and %d more failures\n", r.dropped);
	return r.failures;
}
