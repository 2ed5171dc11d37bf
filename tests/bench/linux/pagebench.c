// SPDX-License-Identifier: MIT
/*
 * tests/bench/linux/pagebench.c - tally's page benchmarks (docs/benchmarks.md),
 * as a Linux module, for the Linux column of `make bench`'s table
 * (tests/bench/linux/run boots Debian's kernel under QEMU's icount and
 * loads it).
 *
 * At load, in the loading task's context (so in its cgroup), it times
 * alloc_pages + __free_pages of order 0 and of order 2, kmalloc(64) +
 * kfree, and kmem_cache_alloc + kmem_cache_free from a SLAB_ACCOUNT cache
 * of tally's struct task's size, the way kernel/bench/bench.c and
 * bench_slab.c do: 200 rounds of warm-up, then 501 rounds of 256
 * operations, each round with preemption and interrupts off, the TSC
 * read around it (for the slab, another object of the cache stays
 * allocated all along); a sample is a round's mean, and it prints the
 * median and 99th percentile over the rounds:
 *
 *   linux: bench LABEL order=N median_cycles=N p99_cycles=N ops=N
 *   linux: bench LABEL slab=kmalloc64|task median_cycles=N p99_cycles=N ops=N
 *
 *   insmod pagebench.ko label=raw                 GFP_KERNEL
 *   insmod pagebench.ko label=accounted account=1 GFP_KERNEL_ACCOUNT
 *
 * Then it refuses to stay loaded (-EAGAIN), so that it can be loaded
 * again at once.
 */
#include <linux/gfp.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <asm/msr.h>

#define BATCH 256
#define ROUNDS 501
#define WARMUP 200

static char *label = "raw";
module_param(label, charp, 0444);
static bool account;
module_param(account, bool, 0444);

static u64 samples[ROUNDS];
static struct kmem_cache *task_cache;  /* SLAB_ACCOUNT, tally's task size */

#define TALLY_TASK_SIZE 960  /* /proc/slabinfo's objsize of tally's task_struct */

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* round - BATCH alloc+free pairs; false if an allocation failed. */
static bool round_of(gfp_t gfp, unsigned int order)
{
	for (int i = 0; i < BATCH; i++) {
		struct page *page = alloc_pages(gfp, order);

		if (!page)
			return false;
		__free_pages(page, order);
	}
	return true;
}

/* kmalloc_round, task_round - BATCH alloc+free pairs of one object. */
static bool kmalloc_round(gfp_t gfp, unsigned int unused)
{
	for (int i = 0; i < BATCH; i++) {
		void *p = kmalloc(64, gfp);

		if (!p)
			return false;
		kfree(p);
	}
	return true;
}

static bool task_round(gfp_t gfp, unsigned int unused)
{
	for (int i = 0; i < BATCH; i++) {
		void *p = kmem_cache_alloc(task_cache, gfp);

		if (!p)
			return false;
		kmem_cache_free(task_cache, p);
	}
	return true;
}

/* measure - time round(gfp, order); what names the line it prints. */
static void measure(bool (*round)(gfp_t, unsigned int), gfp_t gfp,
		    unsigned int order, const char *what)
{
	unsigned long flags;
	bool ok = true;

	for (int r = 0; r < WARMUP && ok; r++) {
		preempt_disable();
		local_irq_save(flags);
		ok = round(gfp, order);
		local_irq_restore(flags);
		preempt_enable();
	}
	for (int r = 0; r < ROUNDS && ok; r++) {
		u64 t0, t1;

		preempt_disable();
		local_irq_save(flags);
		t0 = rdtsc_ordered();
		ok = round(gfp, order);
		t1 = rdtsc_ordered();
		local_irq_restore(flags);
		preempt_enable();
		samples[r] = (t1 - t0) / BATCH;
	}
	if (!ok) {
		pr_info("linux: bench %s %s: an allocation failed\n", label, what);
		return;
	}
	sort(samples, ROUNDS, sizeof(u64), cmp_u64, NULL);
	pr_info("linux: bench %s %s median_cycles=%llu p99_cycles=%llu ops=%u\n",
		label, what, samples[ROUNDS / 2], samples[ROUNDS * 99 / 100],
		ROUNDS * BATCH);
}

static int __init pagebench_init(void)
{
	gfp_t gfp = account ? GFP_KERNEL_ACCOUNT : GFP_KERNEL;
	void *kept, *kept_task;

	measure(round_of, gfp, 0, "order=0");
	measure(round_of, gfp, 2, "order=2");

	/* The slab, in its steady state: another object stays allocated,
	 * so the slab in use never empties (as tally's benchmarks). */
	task_cache = kmem_cache_create("tally_task", TALLY_TASK_SIZE, 0,
				       SLAB_ACCOUNT, NULL);
	if (!task_cache)
		return -ENOMEM;
	kept = kmalloc(64, gfp);
	kept_task = kmem_cache_alloc(task_cache, GFP_KERNEL);
	if (kept && kept_task) {
		measure(kmalloc_round, gfp, 0, "slab=kmalloc64");
		/* accounted by the cache's flag, whatever gfp says */
		measure(task_round, GFP_KERNEL, 0, "slab=task");
	}
	kfree(kept);
	if (kept_task)
		kmem_cache_free(task_cache, kept_task);
	kmem_cache_destroy(task_cache);
	return -EAGAIN;
}
module_init(pagebench_init);

MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("tally's page and slab benchmarks on Linux");
