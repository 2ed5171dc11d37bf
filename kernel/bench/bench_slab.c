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
 *
 * The KMEM=0 build runs the same names: its figures are the raw allocator
 * that `make bench` divides by.
 */
#include "kernel/bench/bench.h"
#include "kernel/base/platform.h"
#include "kernel/sched/task_table.h"
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
