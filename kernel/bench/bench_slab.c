// SPDX-License-Identifier: MIT
/*
 * kernel/bench/bench_slab.c - what accounting costs the slab allocator.
 * One operation allocates one object and frees it:
 *
 *   kmalloc64            kmalloc(64) + kfree, static key off
 *   kmalloc64_root       kmalloc(64, GFP_ACCOUNT), key on, a task of the
 *                        root domain (never charged)
 *   (both with another kmalloc-64 object alive all along, as below)
 *   kmalloc64_accounted  GFP_ACCOUNT in an accounted domain, steady state:
 *                        another object of the domain stays alive in its
 *                        child cache all along
 *   kmalloc64_churn      the same, but the object allocated is the only
 *                        one the domain has in the cache
 *   kmem_cache_task      the task_struct cache (SLAB_ACCOUNT) in an
 *                        accounted domain, another task object alive
 *   slab_smp             all CPUs at once (below)
 *   slab_memory          not a speed: how full the slab pages are that
 *                        N domains' objects take (below)
 *
 * The KMEM=0 build runs the same names: its figures are the raw allocator
 * that `make bench` divides by.
 */
#include <stdio.h>

#include "arch/x86_64/io.h"
#include "kernel/bench/bench.h"
#include "kernel/base/platform.h"
#include "kernel/sched/task_table.h"
#include "mm/line_transfer.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg_hooks.h"
#include "mm/page.h"
#include "mm/slab.h"

static void op_kmalloc64(void *arg)
{
	gfp_t gfp = *(gfp_t *)arg;
	void *p = kmalloc(64, gfp);

	if (!p)
		panic("bench: kmalloc(64) failed");
	kfree(p);
}

static void op_task(void *arg)
{
	void *p = kmem_cache_alloc(task_cache, GFP_KERNEL);

	(void)arg;
	if (!p)
		panic("bench: task_struct allocation failed");
	kmem_cache_free(task_cache, p);
}

/*
 * kmalloc64_in - time kmalloc(64, gfp) with memcg as the active domain,
 * with one more object of the same cache alive all along if keep (the
 * steady state: the slab in use never empties).
 */
static void kmalloc64_in(struct mem_cgroup *memcg, gfp_t gfp,
			 const char *name, bool keep)
{
	struct mem_cgroup *old = set_active_memcg(memcg);
	void *kept = keep ? kmalloc(64, gfp) : NULL;
	struct bench_result r;

	set_active_memcg(old);
	if (keep && !kept) {
		printk("# bench %s: no memory\n", name);
		return;
	}
	r = bench_time_as(memcg, op_kmalloc64, &gfp);
	kfree(kept);
	bench_print(name, &r);
}

static void bench_kmalloc64(void)
{
	kmalloc64_in(NULL, GFP_KERNEL, "kmalloc64", true);
}
BENCH(kmalloc64);

static void bench_kmalloc64_root(void)
{
	static_key_slow_inc(&memcg_kmem_enabled_key);
	kmalloc64_in(root_mem_cgroup, GFP_ACCOUNT, "kmalloc64_root", true);
	static_key_slow_dec(&memcg_kmem_enabled_key);
}
BENCH(kmalloc64_root);

static void accounted(struct mem_cgroup *memcg)
{
	kmalloc64_in(memcg, GFP_ACCOUNT, "kmalloc64_accounted", true);
}

static void bench_kmalloc64_accounted(void)
{
	with_accounted_domain(accounted);
}
BENCH(kmalloc64_accounted);

static void churn(struct mem_cgroup *memcg)
{
	kmalloc64_in(memcg, GFP_ACCOUNT, "kmalloc64_churn", false);
}

static void bench_kmalloc64_churn(void)
{
	with_accounted_domain(churn);
}
BENCH(kmalloc64_churn);

static void task(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = set_active_memcg(memcg);
	void *kept = kmem_cache_alloc(task_cache, GFP_KERNEL);
	struct bench_result r;

	set_active_memcg(old);
	if (!kept) {
		printk("# bench kmem_cache_task: no memory\n");
		return;
	}
	r = bench_time_as(memcg, op_task, NULL);
	kmem_cache_free(task_cache, kept);
	bench_print("kmem_cache_task", &r);
}

static void bench_kmem_cache_task(void)
{
	with_accounted_domain(task);
}
BENCH(kmem_cache_task);

/*
 * slab_smp - every CPU at once allocates and frees objects of the same
 * cache: the bench domain's child cache of kmalloc-64, so that a slab the
 * CPUs share, or a charge, would show. The work runs in the
 * function-call IPI on each CPU (smp_call_function_all), from the child
 * cache directly (an interrupt handler's own allocations are charged to
 * nobody). Besides time, it counts line transfers as charge_smp_* do
 * (mm/memcg/line_transfer.h): on the cache's shared line and on the
 * domain's res, kmem and reference-count lines; the per-CPU slabs' lines
 * are each written by one CPU only. One line, all CPUs:
 *
 *   bench slab_smp median_cycles=N p99_cycles=N ops=N transfers_per_1k=N
 *
 * median and p99 over samples and CPUs of the cycles per alloc+free,
 * `ops` the pairs made per CPU.
 */
#define SLAB_SMP_SAMPLES 11
#define SLAB_SMP_OPS 4096     /* pairs per CPU per sample */
#define SLAB_SMP_KEEP 8       /* objects each CPU keeps alive meanwhile */

struct slab_smp_run {
	struct kmem_cache *cache;
	volatile unsigned int arrived;
	uint64_t cycles[NR_CPUS];
	volatile bool failed;
};

static void slab_smp_loop(void *arg)
{
	struct slab_smp_run *run = arg;
	unsigned int cpu = smp_processor_id();
	void *keep[SLAB_SMP_KEEP];
	uint64_t start;

	/* A few objects alive, so that the steady state is measured. */
	for (int i = 0; i < SLAB_SMP_KEEP; i++)
		keep[i] = kmem_cache_alloc(run->cache, GFP_ATOMIC);
	__atomic_fetch_add(&run->arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&run->arrived, __ATOMIC_ACQUIRE) < nr_cpus)
		cpu_relax();
	start = rdtsc_ordered();
	for (int i = 0; i < SLAB_SMP_OPS; i++) {
		void *p = kmem_cache_alloc(run->cache, GFP_ATOMIC);

		if (!p) {
			run->failed = true;
			break;
		}
		kmem_cache_free(run->cache, p);
	}
	run->cycles[cpu] = (rdtsc_ordered() - start) / SLAB_SMP_OPS;
	for (int i = 0; i < SLAB_SMP_KEEP; i++)
		if (keep[i])
			kmem_cache_free(run->cache, keep[i]);
}

static unsigned long slab_transfers(struct kmem_cache *c,
				    struct mem_cgroup *memcg)
{
	return line_transfers(&c->line) + line_transfers(&memcg->res.line) +
	       line_transfers(&memcg->kmem.line) +
	       line_transfers(&memcg->refcnt_line);
}

static void slab_smp_in(struct mem_cgroup *memcg)
{
	static struct slab_smp_run run;
	static uint64_t samples[SLAB_SMP_SAMPLES * NR_CPUS];
	struct mem_cgroup *old = set_active_memcg(memcg);
	void *first = kmalloc(64, GFP_ACCOUNT);
	struct kmem_cache *child = NULL;
	unsigned long before, transfers, pairs;
	unsigned int n = 0;
	struct bench_result r;

	set_active_memcg(old);
	for (int id = 0; id < MEMCG_CACHES_MAX; id++) {
		struct kmem_cache *c = memcg->view.slab_caches[id];

		if (c && c->memcg_params.root_cache->object_size == 64)
			child = c;
	}
	if (!first || !child) {
		/* `objects` makes none: the CPUs would share the root
		 * cache, and the IPI's allocations are charged to nobody. */
		printk("# bench slab_smp: no child cache of kmalloc-64%s\n",
		       memcg_slab_objects() ? " (slab_accounting=objects)"
					    : "");
		kfree(first);
		return;
	}
	run.cache = child;
	run.failed = false;
	line_transfer_count_start();
	before = slab_transfers(child, memcg);
	for (int s = 0; s < SLAB_SMP_SAMPLES; s++) {
		run.arrived = 0;
		smp_call_function_all(slab_smp_loop, &run);
		for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
			samples[n++] = run.cycles[cpu];
	}
	transfers = slab_transfers(child, memcg) - before;
	line_transfer_count_stop();
	kfree(first);
	if (run.failed)
		printk("# bench slab_smp: an allocation failed\n");
	pairs = (unsigned long)SLAB_SMP_SAMPLES * SLAB_SMP_OPS * nr_cpus;
	r = bench_stats(samples, n, pairs / nr_cpus);
	printk("bench slab_smp median_cycles=%lu p99_cycles=%lu ops=%lu "
	       "transfers_per_1k=%lu\n", (unsigned long)r.median_cycles,
	       (unsigned long)r.p99_cycles, r.ops,
	       (transfers * 1000 + pairs / 2) / pairs);
}

static void bench_slab_smp(void)
{
	with_accounted_domain(slab_smp_in);
}
BENCH(slab_smp);

/*
 * slab_memory - how much of the slab memory that domains' objects take
 * holds objects. For N = 1, 8 and 64 fresh accounted domains, each
 * allocates the same small mix of objects (slab_mix below: kmalloc sizes
 * from 32 to 256 bytes and objects of the task_struct cache); then
 *
 *   utilization_pct = object bytes / slab bytes
 *
 * Object bytes: each object counted at the object size of the cache
 * that serves it (ksize: a kmalloc(192) counts 256), as slabinfo counts
 * them. Slab bytes: the pages that the allocations added to the slab
 * allocator (nr_slab_pages, after less before), without the pages of the
 * cache of caches: the struct kmem_cache of each domain's child caches is
 * the kernel's bookkeeping, not room for objects (in tally it is over
 * 4 KiB, a CPU slab line for each of NR_CPUS), and it is printed apart,
 * as a "# bench:" line. In the `caches` design every domain's objects
 * sit on its own child caches' slabs, mostly empty when a domain holds
 * few objects; in the `objects` design they share the root caches'
 * slabs, and what is added is what the objects fill, plus any owner
 * records the design keeps in slab memory. The KMEM=0 build packs the
 * same objects with no accounting at all: the most a design can reach
 * with this allocator (whose slab header, in the slab, leaves room for 7
 * objects of kmalloc-512 in a page, not 8: a kmalloc object of 512 bytes
 * or more cannot fill more than 7/8 of a slab, which is why the mix has
 * none; its task_struct objects, 960 bytes, fill 15/16 of a page, four
 * beside the header).
 *
 * For the delta to be fair, the root caches of the mix are shrunk and
 * then every free object left on their slabs is taken (unaccounted) before
 * the count starts: an object that lands in a slab some other object left
 * room in would add no page and look free. All is given back afterwards.
 *
 *   bench slab_memory median_cycles=N p99_cycles=N ops=N domains=N
 *         utilization_pct=P slab_kB=K
 *
 * on one line per N. median and p99 over the domains of the cycles per
 * object to allocate a domain's mix (a domain's first objects of each
 * cache make its child caches, in the `caches` design), ops the objects.
 */
#define SLAB_MEMORY_DOMAINS_MAX 64
#define SLAB_MIX_OBJECTS 36

/* One kind of object of the mix: size bytes of kmalloc, or (size 0) a
 * task_struct object. The mix is what a domain's tasks make in tally:
 * a dozen directories of the mkdir loop (each an entry of 128 bytes and
 * an inode of 24, served here by kmalloc-128 and kmalloc-32), two tasks,
 * and a few small kmallocs. */
static const struct {
	size_t size;
	unsigned int count;
} slab_mix[] = {
	{32, 12}, {128, 12}, {64, 8}, {256, 2}, {0, 2},
};

struct slab_memory_run {
	struct mem_cgroup *domains[SLAB_MEMORY_DOMAINS_MAX];
	void *objs[SLAB_MEMORY_DOMAINS_MAX][SLAB_MIX_OBJECTS];
	uint64_t samples[SLAB_MEMORY_DOMAINS_MAX];
	struct kmem_cache *roots[ARRAY_SIZE(slab_mix)];
	struct kmem_cache *descriptors;  /* the cache of struct kmem_cache */
	void *fillers;  /* objects taken to fill the roots, chained */
};

/* mix_root - the root cache that serves slab_mix[i]. */
static struct kmem_cache *mix_root(unsigned int i)
{
	char name[KMEM_CACHE_NAME_MAX];
	size_t size = KMALLOC_MIN_SIZE;

	if (slab_mix[i].size == 0)
		return task_cache;
	while (size < slab_mix[i].size)
		size <<= 1;
	snprintf(name, sizeof(name), "kmalloc-%lu", (unsigned long)size);
	return kmem_cache_find(name);
}

static void *mix_alloc(unsigned int i)
{
	if (slab_mix[i].size == 0)
		return kmem_cache_alloc(task_cache, GFP_KERNEL);
	return kmalloc(slab_mix[i].size, GFP_ACCOUNT);
}

/* descriptor_pages - the pages of the cache of caches. */
static unsigned long descriptor_pages(const struct kmem_cache *descr)
{
	return READ_ONCE(descr->num_slabs) << descr->order;
}

/* object_slab_pages - the slab allocator's pages, the cache of caches'
 * aside. */
static unsigned long object_slab_pages(const struct kmem_cache *descr)
{
	return READ_ONCE(nr_slab_pages) - descriptor_pages(descr);
}

/*
 * fill_roots - shrink each root cache of the mix, then take (unaccounted)
 * every object still free on its slabs, so that the domains' objects in a
 * shared slab need new pages; they are chained through their first word
 * on run->fillers, for unfill_roots.
 */
static void fill_roots(struct slab_memory_run *run)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(slab_mix); i++) {
		struct kmem_cache *c = run->roots[i];
		struct slabinfo info;
		unsigned long free;

		kmem_cache_shrink(c);
		get_slabinfo(c, &info);
		free = info.num_objs - info.active_objs;
		while (free--) {
			void *p = kmem_cache_alloc(c, GFP_KERNEL);

			if (!p)
				break;
			*(void **)p = run->fillers;
			run->fillers = p;
		}
	}
}

/* unfill_roots - give the fillers back, and the slabs left empty. */
static void unfill_roots(struct slab_memory_run *run)
{
	while (run->fillers) {
		void *p = run->fillers;

		run->fillers = *(void **)p;
		kfree(p);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(slab_mix); i++)
		kmem_cache_shrink(run->roots[i]);
}

/*
 * fill_domain - allocate the mix as domain d; false if an allocation
 * failed (the objects made so far stay in run->objs, for the clean-up).
 */
static bool fill_domain(struct slab_memory_run *run, unsigned int d)
{
	struct mem_cgroup *old = set_active_memcg(run->domains[d]);
	unsigned int k = 0;
	uint64_t start = rdtsc_ordered();
	bool ok = true;

	for (unsigned int i = 0; i < ARRAY_SIZE(slab_mix); i++) {
		for (unsigned int j = 0; j < slab_mix[i].count; j++) {
			run->objs[d][k] = mix_alloc(i);
			ok = ok && run->objs[d][k];
			k++;
		}
	}
	run->samples[d] = (rdtsc_ordered() - start) / SLAB_MIX_OBJECTS;
	set_active_memcg(old);
	return ok;
}

/* make_domains - n fresh domains with a kmem limit, into run->domains;
 * the number made. */
static unsigned int make_domains(struct slab_memory_run *run, unsigned int n)
{
	char name[MEMCG_NAME_MAX + 1];

	for (unsigned int d = 0; d < n; d++) {
		snprintf(name, sizeof(name), "slab_memory%u", d);
		if (mem_cgroup_create(root_mem_cgroup, name,
				      &run->domains[d]) < 0)
			return d;
		if (memcg_update_kmem_limit(run->domains[d], 1ll << 30) < 0) {
			mem_cgroup_destroy(run->domains[d]);
			return d;
		}
	}
	return n;
}

/* slab_memory_print - the result line for n domains whose objects
 * (bytes) added pages slab pages, and descr pages of descriptors. */
static void slab_memory_print(struct slab_memory_run *run, unsigned int n,
			      unsigned long bytes, unsigned long pages,
			      unsigned long descr)
{
	unsigned long slab_bytes = pages * PAGE_SIZE;
	struct bench_result r = bench_stats(run->samples, n,
					    (unsigned long)n *
						    SLAB_MIX_OBJECTS);

	printk("bench slab_memory median_cycles=%lu p99_cycles=%lu ops=%lu "
	       "domains=%u utilization_pct=%lu slab_kB=%lu\n",
	       (unsigned long)r.median_cycles, (unsigned long)r.p99_cycles,
	       r.ops, n, (bytes * 100 + slab_bytes / 2) / slab_bytes,
	       slab_bytes / 1024);
	printk("# bench: slab_memory domains=%u cache_descriptors_kB=%lu\n",
	       n, descr * PAGE_SIZE / 1024);
}

/* slab_memory_with - one line, for n domains. */
static void slab_memory_with(struct slab_memory_run *run, unsigned int n)
{
	unsigned long start, before, after, descr, bytes = 0;
	unsigned int made = make_domains(run, n);
	bool ok = made == n;

	/* The domains exist before the count starts: their own structures
	 * are no object of the mix. */
	start = object_slab_pages(run->descriptors);
	fill_roots(run);
	before = object_slab_pages(run->descriptors);
	descr = descriptor_pages(run->descriptors);
	for (unsigned int d = 0; ok && d < n; d++)
		ok = fill_domain(run, d);
	after = object_slab_pages(run->descriptors);
	descr = descriptor_pages(run->descriptors) - descr;
	for (unsigned int d = 0; d < made; d++) {
		for (unsigned int k = 0; k < SLAB_MIX_OBJECTS; k++) {
			if (run->objs[d][k])
				bytes += ksize(run->objs[d][k]);
		}
	}
	if (!ok)
		printk("# bench: slab_memory domains=%u: no memory\n", n);
	else if (after <= before)
		printk("# bench: slab_memory domains=%u: no slab page added\n",
		       n);
	else
		slab_memory_print(run, n, bytes, after - before, descr);

	/* Back as it was: the objects, the domains (their child caches
	 * go with them), the fillers and the slabs they leave empty. */
	for (unsigned int d = 0; d < made; d++) {
		for (unsigned int k = 0; k < SLAB_MIX_OBJECTS; k++) {
			kfree(run->objs[d][k]);
			run->objs[d][k] = NULL;
		}
		if (mem_cgroup_destroy(run->domains[d]) < 0)
			printk("# bench: slab_memory: cannot remove domain "
			       "%u\n", d);
		run->domains[d] = NULL;
	}
	unfill_roots(run);
	after = object_slab_pages(run->descriptors);
	if (after > start)
		printk("# bench: slab_memory domains=%u: %lu slab pages not "
		       "given back\n", n, after - start);
}

static void bench_slab_memory(void)
{
	static struct slab_memory_run run;
	static const unsigned int counts[] = {1, 8, SLAB_MEMORY_DOMAINS_MAX};
	unsigned int objects = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(slab_mix); i++) {
		objects += slab_mix[i].count;
		run.roots[i] = mix_root(i);
		if (!run.roots[i]) {
			printk("# bench: slab_memory: no root cache\n");
			return;
		}
	}
	if (objects != SLAB_MIX_OBJECTS)
		panic("bench slab_memory: slab_mix has %u objects, not %u",
		      objects, SLAB_MIX_OBJECTS);
	run.descriptors = kmem_cache_find("kmem_cache");
	if (!run.descriptors) {
		printk("# bench: slab_memory: no cache of caches\n");
		return;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(counts); i++)
		slab_memory_with(&run, counts[i]);
}
BENCH(slab_memory);
