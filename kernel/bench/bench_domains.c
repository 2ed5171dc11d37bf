// SPDX-License-Identifier: MIT
/*
 * kernel/bench/bench_domains.c - what a domain costs, and how the costs
 * grow with the number of domains: mkdir and rmdir as the shell makes
 * them (through the control tree, files and all), the bytes a domain
 * takes, the root's memory.stat, and a stock-hit charge beside N other
 * domains. One line per count and shape:
 *
 *   bench domains n=N shape=flat|tree mkdir=I rmdir=I bytes_per_domain=B
 *         root_stat=I charge_hit=I pages_back=D
 *
 * shape=flat makes N domains under /cgroup; shape=tree makes 100 parents
 * under /cgroup and spreads N children over them (for N < 100, N parents
 * of one child each). With the N domains alive:
 *   mkdir, rmdir   the median cost of one more domain made and removed
 *                  (PROBES of them, beside the N; in the tree, under the
 *                  parents in turn)
 *   bytes_per_domain  what making the N domains (and the tree's parents)
 *                  took, over their number: pages taken other than slab
 *                  pages, plus the bytes of slab objects in use (the
 *                  slab pages themselves are shared, and page-grained)
 *   root_stat      the median cost of reading /cgroup/memory.stat
 *   charge_hit     a kernel charge and uncharge of one page served by the
 *                  stock (memcg_charge_kmem) in a domain beside them
 *   pages_back     free pages before the domains were made, less free
 *                  pages after every one of them is removed
 * Then `# bench domains n=N shape=S nr_dying_descendants=D` says how many
 * removed domains still linger.
 *
 * `bench domains_max` makes domains under /cgroup until mkdir fails:
 *   bench domains_max made=N next=ENAME
 * and removes them. `bench drain` is in kernel/bench/bench_drain.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86_64/io.h"
#include "kernel/bench/bench.h"
#include "kernel/base/platform.h"
#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/lib/errno_name.h"
#include "mm/buddy.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"
#include "mm/slab.h"

#define PROBES 21          /* domains made and removed to time one */
#define STAT_READS 5       /* reads of memory.stat timed */
#define TREE_PARENTS 100
#define DOMAINS_LIMIT 70000u  /* domains_max stops here whatever happens */

static const unsigned int domain_counts[] = {1, 100, 1000, 10000};

struct memory_use {
	unsigned long free_pages;
	unsigned long slab_pages;
	uint64_t slab_bytes;  /* objects in use, at their slot size */
};

/* memory_use_now - free pages, slab pages and slab bytes in use. */
static struct memory_use memory_use_now(void)
{
	struct memory_use u = {nr_free_pages(), READ_ONCE(nr_slab_pages), 0};
	struct kmem_cache *cache;
	unsigned long flags;

	flags = spin_lock_irqsave(&slab_caches_lock);
	list_for_each_entry(cache, &slab_caches, list) {
		/* active_objs counts a CPU slab's free objects too. */
		long used = (long)READ_ONCE(cache->active_objs);

		for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
			used -= (long)READ_ONCE(cache->cpu_slab[cpu].nr_free);
		u.slab_bytes += (uint64_t)used * cache->size;
	}
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	return u;
}

/* bytes_taken - what was allocated between before and after. */
static int64_t bytes_taken(const struct memory_use *before,
			   const struct memory_use *after)
{
	int64_t pages = (int64_t)before->free_pages - after->free_pages;
	int64_t slab = (int64_t)after->slab_pages - before->slab_pages;

	return (pages - slab) * PAGE_SIZE +
	       ((int64_t)after->slab_bytes - (int64_t)before->slab_bytes);
}

struct domains_shape {
	bool tree;
	unsigned int parents;  /* tree: how many */
};

/* child_path - the path of the i-th domain of the shape. */
static void child_path(const struct domains_shape *s, unsigned int i,
		       const char *prefix, char *buf, size_t size)
{
	if (s->tree)
		snprintf(buf, size, "/cgroup/bdp%u/%s%u", i % s->parents,
			 prefix, i);
	else
		snprintf(buf, size, "/cgroup/%s%u", prefix, i);
}

/* mkdir_path, rmdir_path - as the shell's mkdir and rmdir: 0 or -errno
 * (the explanation is not needed). */
static int mkdir_path(const char *path)
{
	char why[CTL_WHY_MAX];

	return ctl_mkdir(path, why);
}

static int rmdir_path(const char *path)
{
	char why[CTL_WHY_MAX];

	return ctl_rmdir(path, why);
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *s, unsigned int n)
{
	qsort(s, n, sizeof(*s), compare_u64);
	return s[n / 2];
}

/* probe_mkdir_rmdir - the median cost of one mkdir and of one rmdir with
 * the shape's domains alive. */
static void probe_mkdir_rmdir(const struct domains_shape *s,
			      uint64_t *mkdir_cost, uint64_t *rmdir_cost)
{
	uint64_t mk[PROBES], rm[PROBES];
	char path[CTL_PATH_MAX];

	for (unsigned int i = 0; i < PROBES; i++) {
		uint64_t start;

		child_path(s, i, "bdprobe", path, sizeof(path));
		start = rdtsc_ordered();
		if (mkdir_path(path) < 0)
			panic("bench domains: cannot make %s", path);
		mk[i] = rdtsc_ordered() - start;
	}
	for (unsigned int i = 0; i < PROBES; i++) {
		uint64_t start;

		child_path(s, i, "bdprobe", path, sizeof(path));
		start = rdtsc_ordered();
		if (rmdir_path(path) < 0)
			panic("bench domains: cannot remove %s", path);
		rm[i] = rdtsc_ordered() - start;
	}
	*mkdir_cost = median(mk, PROBES);
	*rmdir_cost = median(rm, PROBES);
}

/* root_stat_cost - the median cost of reading /cgroup/memory.stat. */
static uint64_t root_stat_cost(void)
{
	static char buf[2048];
	uint64_t s[STAT_READS];
	char why[CTL_WHY_MAX];

	for (unsigned int i = 0; i < STAT_READS; i++) {
		uint64_t start = rdtsc_ordered();

		if (ctl_read("/cgroup/memory.stat", buf, sizeof(buf), why) < 0)
			panic("bench domains: cannot read the root's "
			      "memory.stat");
		s[i] = rdtsc_ordered() - start;
	}
	return median(s, STAT_READS);
}

static struct mem_cgroup *hit_domain;

static void op_charge_hit(void *arg)
{
	(void)arg;
	if (memcg_charge_kmem(hit_domain, GFP_KERNEL, 1) != 0)
		panic("bench domains: a charge was refused");
	memcg_uncharge_kmem(hit_domain, 1);
}

/* charge_hit_cost - a stock-hit charge in a new domain beside the others
 * (a sibling of the flat ones; in the tree, a child of the first
 * parent). */
static uint64_t charge_hit_cost(const struct domains_shape *s)
{
	struct mem_cgroup *parent;
	struct bench_result r;

	if (cgroupfs_get_domain(s->tree ? "/cgroup/bdp0" : "/cgroup",
				&parent) < 0)
		panic("bench domains: no parent for the charged domain");
	if (mem_cgroup_create(parent, "bdcharged", &hit_domain) < 0 ||
	    memcg_update_kmem_limit(hit_domain, 1ll << 30) < 0)
		panic("bench domains: cannot make the charged domain");
	r = bench_time(op_charge_hit, NULL);
	drain_all_stock(hit_domain);
	if (mem_cgroup_destroy(hit_domain) < 0)
		panic("bench domains: cannot remove the charged domain");
	mem_cgroup_put(parent);
	return r.median_cycles;
}

/* make_or_remove - mkdir (or rmdir) the parents and the n domains. */
static void make_or_remove(const struct domains_shape *s, unsigned int n,
			   bool make)
{
	char path[CTL_PATH_MAX];

	for (unsigned int p = 0; make && s->tree && p < s->parents; p++) {
		snprintf(path, sizeof(path), "/cgroup/bdp%u", p);
		if (mkdir_path(path) < 0)
			panic("bench domains: cannot make %s", path);
	}
	for (unsigned int i = 0; i < n; i++) {
		child_path(s, i, "bd", path, sizeof(path));
		if ((make ? mkdir_path(path) : rmdir_path(path)) < 0)
			panic("bench domains: cannot %s %s",
			      make ? "make" : "remove", path);
	}
	for (unsigned int p = 0; !make && s->tree && p < s->parents; p++) {
		snprintf(path, sizeof(path), "/cgroup/bdp%u", p);
		if (rmdir_path(path) < 0)
			panic("bench domains: cannot remove %s", path);
	}
}

static void domains_warm_up(void)
{
	struct domains_shape s = {true, 1};

	make_or_remove(&s, 1, true);
	root_stat_cost();
	make_or_remove(&s, 1, false);
}

static void domains_line(unsigned int n, bool tree)
{
	struct domains_shape s = {tree, n < TREE_PARENTS ? n : TREE_PARENTS};
	struct memory_use before, made, after;
	uint64_t mkdir_cost, rmdir_cost, stat_cost, hit_cost;
	unsigned int nr = n + (tree ? s.parents : 0);
	int64_t bytes;

	drain_all_stock(NULL);
	before = memory_use_now();
	make_or_remove(&s, n, true);
	made = memory_use_now();
	bytes = bytes_taken(&before, &made);

	probe_mkdir_rmdir(&s, &mkdir_cost, &rmdir_cost);
	stat_cost = root_stat_cost();
	hit_cost = charge_hit_cost(&s);

	make_or_remove(&s, n, false);
	drain_all_stock(NULL);
	after = memory_use_now();
	printk("bench domains n=%u shape=%s mkdir=%lu rmdir=%lu "
	       "bytes_per_domain=%ld root_stat=%lu charge_hit=%lu "
	       "pages_back=%ld\n", n, tree ? "tree" : "flat",
	       (unsigned long)mkdir_cost, (unsigned long)rmdir_cost,
	       (long)(bytes / (int64_t)nr), (unsigned long)stat_cost,
	       (unsigned long)hit_cost,
	       (long)before.free_pages - (long)after.free_pages);
	printk("# bench domains n=%u shape=%s nr_dying_descendants=%lu\n", n,
	       tree ? "tree" : "flat", mem_cgroup_nr_dying());
}

static void bench_domains(void)
{
	/* Once first, for what the first mkdir and memory.stat allocate
	 * for good (caches grown, buffers), which no domain costs. */
	domains_warm_up();
	for (unsigned int shape = 0; shape < 2; shape++)
		for (size_t i = 0; i < ARRAY_SIZE(domain_counts); i++)
			domains_line(domain_counts[i], shape == 1);
}
BENCH(domains);

static void bench_domains_max(void)
{
	char path[CTL_PATH_MAX];
	unsigned int made = 0;
	const char *name;
	int ret = 0;

	while (made < DOMAINS_LIMIT) {
		snprintf(path, sizeof(path), "/cgroup/bdmax%u", made);
		ret = mkdir_path(path);
		if (ret < 0)
			break;
		made++;
	}
	name = ret < 0 ? errno_name(ret) : NULL;
	printk("bench domains_max made=%u next=%s\n", made,
	       name ? name : "none");
	while (made > 0) {
		snprintf(path, sizeof(path), "/cgroup/bdmax%u", --made);
		if (rmdir_path(path) < 0)
			panic("bench domains_max: cannot remove %s", path);
	}
}
BENCH(domains_max);
