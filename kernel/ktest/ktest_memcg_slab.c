// SPDX-License-Identifier: MIT
/*
 * kernel/ktest/ktest_memcg_slab.c - in-kernel test of a domain's slab child
 * caches (mm/memcg/memcg_slab.h) on the real machine: `ktest
 * memcg_child_cache`. The host test tests/unit/test_memcg_slab.c checks the
 * same code in detail; this one checks it where it runs, with the static key
 * patched in, the real page allocator and the real control files.
 *
 * The allocations are made with the domain as the current charge target
 * (set_active_memcg, mm/memcg_hooks.h, as `run` charges a new task's
 * stack): the domain has no task, so its kmem usage is exactly what the test
 * allocates, to the page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/sched/fork.h"
#include "kernel/ktest/ktest.h"
#include "kernel/base/platform.h"
#include "mm/buddy.h"
#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcontrol.h"
#include "mm/page.h"
#include "mm/pcp.h"
#include "mm/slab.h"

#define KT_DIR "/cgroup/ktest_child_cache"
#define KT_CHILD_NAME "ktest_acct(ktest_child_cache)"
#define KT_SLABS 4                 /* the domain's kmem limit, in slabs */
#define KT_OBJS_MAX (KT_SLABS * 64)

static void *kt_objs[KT_OBJS_MAX];

/* slab_head - the first page of the slab (of 2^order pages) holding obj. */
static struct page *slab_head(const void *obj, unsigned int order)
{
	uint64_t pfn = virt_to_phys(obj) >> PAGE_SHIFT;

	return pfn_to_page(pfn & ~((1ul << order) - 1));
}

/* alloc_as - up to n objects of cache into kt_objs[from..], allocated as
 * a task of memcg; stops at the first NULL. Returns how many it got. */
static int alloc_as(struct mem_cgroup *memcg, struct kmem_cache *cache,
		    int from, int n)
{
	struct mem_cgroup *old;
	int got = 0;

	old = set_active_memcg(memcg);
	while (got < n && from + got < KT_OBJS_MAX) {
		void *obj = kmem_cache_alloc(cache, GFP_KERNEL);

		if (!obj)
			break;
		kt_objs[from + got++] = obj;
	}
	set_active_memcg(old);
	return got;
}

static long read_number(const char *file)
{
	char path[CTL_PATH_MAX], buf[64], why[CTL_WHY_MAX];

	snprintf(path, sizeof(path), "%s/%s", KT_DIR, file);
	if (ctl_read(path, buf, sizeof(buf), why) <= 0)
		return -1;
	return atol(buf);
}

/*
 * A domain with a kmem limit of KT_SLABS slabs allocates from a
 * SLAB_ACCOUNT cache: the objects come from its own child cache, made on
 * its first allocation; its kmem usage rises by whole slabs, never past
 * the limit; a system task's objects stay in the root cache, uncharged.
 * Freeing gives back each slab as it empties. Removed while one object
 * lives, the domain is dying until that object is freed; then it goes,
 * and its child cache with it.
 */
static void ktest_memcg_child_cache(struct ktest *t)
{
	struct kmem_cache *cache, *child = NULL;
	struct mem_cgroup *memcg = NULL;
	char why[CTL_WHY_MAX], limit[32];
	unsigned long free0, dying0;
	long slab_bytes;
	int n = 0, got;
	void *obj;

	drain_all_pages();
	free0 = nr_free_pages();
	cache = kmem_cache_create("ktest_acct", 256, 0, SLAB_ACCOUNT);
	KTEST_EXPECT(t, cache != NULL, "kmem_cache_create(SLAB_ACCOUNT)");
	if (!cache)
		return;
	slab_bytes = PAGE_SIZE << cache->order;

	/* The domain; no task in it, so nothing else is charged to it. */
	snprintf(limit, sizeof(limit), "%ld", KT_SLABS * slab_bytes);
	KTEST_EXPECT(t, ctl_mkdir(KT_DIR, why) == 0, "mkdir a domain");
	KTEST_EXPECT(t, ctl_write(KT_DIR "/memory.kmem.limit_in_bytes", limit,
				  why) == 0, "set a kmem limit of 4 slabs");
	if (cgroupfs_get_domain(KT_DIR, &memcg) < 0) {
		KTEST_EXPECT(t, false, "find the domain");
		ctl_rmdir(KT_DIR, why);
		kmem_cache_destroy(cache);
		return;
	}
	KTEST_EXPECT(t, read_number("memory.kmem.usage_in_bytes") == 0,
		     "kmem usage 0 to begin with");

	/* A system task (this one) is charged nothing: the root cache. */
	obj = kmem_cache_alloc(cache, GFP_KERNEL);
	KTEST_EXPECT(t, obj != NULL, "a system task's allocation");
	if (obj) {
		KTEST_EXPECT(t, kmem_cache_in_use(cache) == 1,
			     "it comes from the root cache");
		KTEST_EXPECT(t, !(slab_head(obj, cache->order)->flags &
				  PG_kmemcg), "on a page charged to nobody");
		kmem_cache_free(cache, obj);
	}
	KTEST_EXPECT(t, memcg->view.slab_caches[cache->memcg_params.id] == NULL,
		     "the domain has no child cache before it allocates");

	/* One slab and one object more, as a task of the domain. */
	n = alloc_as(memcg, cache, 0, cache->num + 1);
	KTEST_EXPECT(t, n == (int)cache->num + 1, "the domain's allocations");
	child = memcg->view.slab_caches[cache->memcg_params.id];
	KTEST_EXPECT(t, child != NULL, "its first allocation made its child "
		     "cache");
	if (!child)
		goto out;
	KTEST_EXPECT(t, !strcmp(child->name, KT_CHILD_NAME),
		     "named root(domain): ktest_acct(ktest_child_cache)");
	KTEST_EXPECT(t, kmem_cache_find(KT_CHILD_NAME) == child,
		     "listed in slabinfo");
	KTEST_EXPECT(t, child->memcg_params.memcg == memcg &&
			child->memcg_params.root_cache == cache,
		     "the child cache knows its domain and its root cache");
	KTEST_EXPECT(t, kmem_cache_in_use(child) == (unsigned long)n &&
			kmem_cache_in_use(cache) == 0,
		     "every object in the child cache, none in the root");
	KTEST_EXPECT(t, child->num_slabs == 2, "in two slabs");
	for (int i = 0; i < n; i++) {
		struct page *head = slab_head(kt_objs[i], child->order);

		if (!(head->flags & PG_slab) || !(head->flags & PG_kmemcg) ||
		    head->memcg != memcg) {
			KTEST_EXPECT(t, false, "each object's slab is charged "
				     "to the domain (page->memcg)");
			break;
		}
	}
	KTEST_EXPECT(t, read_number("memory.kmem.usage_in_bytes") ==
			2 * slab_bytes,
		     "kmem usage is the two slabs, to the page");

	/* Up to the limit: whole slabs, then the next slab is refused. */
	got = alloc_as(memcg, cache, n, KT_OBJS_MAX - n);
	n += got;
	KTEST_EXPECT(t, n == KT_SLABS * (int)cache->num,
		     "objects of exactly 4 slabs, then NULL");
	KTEST_EXPECT(t, read_number("memory.kmem.usage_in_bytes") ==
			KT_SLABS * slab_bytes, "kmem usage at the limit");
	KTEST_EXPECT(t, read_number("memory.kmem.max_usage_in_bytes") <=
			KT_SLABS * slab_bytes, "never above it");
	KTEST_EXPECT(t, read_number("memory.kmem.failcnt") >= 1,
		     "the refusal is counted in kmem.failcnt");

	/* Freed by a system task, through the root cache: each slab goes
	 * back, uncharged, as it empties; the child cache keeps none. */
	for (int i = n - 1; i > 0; i--)
		kmem_cache_free(cache, kt_objs[i]);
	/* n counts what the clean-up at out: frees; kept true at each step.
	 * NOLINTNEXTLINE(clang-analyzer-deadcode.DeadStores) */
	n = 1;
	KTEST_EXPECT(t, kmem_cache_in_use(child) == 1 && child->num_slabs == 1,
		     "one object left, in one slab");
	KTEST_EXPECT(t, read_number("memory.kmem.usage_in_bytes") ==
			slab_bytes, "kmem usage is that slab");

	/* Removed while the object lives: dying, until it is freed. */
	dying0 = mem_cgroup_nr_dying();
	mem_cgroup_put(memcg);  /* the page's reference keeps it now */
	memcg = NULL;
	KTEST_EXPECT(t, ctl_rmdir(KT_DIR, why) == 0, "rmdir the domain");
	KTEST_EXPECT(t, mem_cgroup_nr_dying() == dying0 + 1,
		     "it is dying: one more nr_dying_descendants");
	KTEST_EXPECT(t, kmem_cache_find(KT_CHILD_NAME) != NULL,
		     "its child cache still holds the object");
	kmem_cache_free(cache, kt_objs[0]);
	n = 0;
	KTEST_EXPECT(t, mem_cgroup_nr_dying() == dying0,
		     "the last object freed: the domain is freed");
	KTEST_EXPECT(t, !kmem_cache_find(KT_CHILD_NAME),
		     "and its child cache with it");
	if (mem_cgroup_nr_dying() != dying0) {
		/* Destroying the root cache would destroy the child cache
		 * under its dying domain: after a failure, leave both. */
		printk("# memcg_child_cache: the domain is still dying: "
		       "cache ktest_acct and its child cache are left\n");
		return;
	}

out:
	for (int i = 0; i < n; i++)
		kmem_cache_free(cache, kt_objs[i]);
	if (memcg) {
		mem_cgroup_put(memcg);
		ctl_rmdir(KT_DIR, why);
	}
	kmem_cache_destroy(cache);
	drain_all_pages();
	KTEST_EXPECT(t, nr_free_pages() + 64 >= free0,
		     "MemFree back within 256 KiB");
}
KTEST(memcg_child_cache);
