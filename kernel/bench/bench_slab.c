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
 *
 * The KMEM=0 build runs the same names: its figures are the raw allocator
 * that `make bench` divides by.
 */
#include "arch/x86_64/io.h"
#include "kernel/bench/bench.h"
#include "kernel/base/platform.h"
#include "kernel/sched/task_table.h"
#include "mm/line_transfer.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg_hooks.h"
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
		printk("# bench slab_smp: no child cache of kmalloc-64\n");
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
