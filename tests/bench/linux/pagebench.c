// SPDX-License-Identifier: MIT
/*
 * tests/bench/linux/pagebench.c - tally's page benchmarks (docs/benchmarks.md),
 * as a Linux module, for the Linux column of `make bench`'s table
 * (tests/bench/linux/run boots Debian's kernel under QEMU's icount and
 * loads it).
 *
 * At load, in the loading task's context (so in its cgroup), it times
 * alloc_pages + __free_pages of order 0 and of order 2 the way
 * kernel/bench/bench.c does: 200 rounds of warm-up, then 501 rounds of
 * 256 operations, each round with preemption and interrupts off, the TSC
 * read around it; a sample is a round's mean, and it prints the median
 * and 99th percentile over the rounds:
 *
 *   linux: bench LABEL order=N median_cycles=N p99_cycles=N ops=N
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

static void measure(gfp_t gfp, unsigned int order)
{
	unsigned long flags;
	bool ok = true;

	for (int r = 0; r < WARMUP && ok; r++) {
		preempt_disable();
		local_irq_save(flags);
		ok = round_of(gfp, order);
		local_irq_restore(flags);
		preempt_enable();
	}
	for (int r = 0; r < ROUNDS && ok; r++) {
		u64 t0, t1;

		preempt_disable();
		local_irq_save(flags);
		t0 = rdtsc_ordered();
		ok = round_of(gfp, order);
		t1 = rdtsc_ordered();
		local_irq_restore(flags);
		preempt_enable();
		samples[r] = (t1 - t0) / BATCH;
	}
	if (!ok) {
		pr_info("linux: bench %s order=%u: an allocation failed\n", label, order);
		return;
	}
	sort(samples, ROUNDS, sizeof(u64), cmp_u64, NULL);
	pr_info("linux: bench %s order=%u median_cycles=%llu p99_cycles=%llu ops=%u\n",
		label, order, samples[ROUNDS / 2], samples[ROUNDS * 99 / 100],
		ROUNDS * BATCH);
}

static int __init pagebench_init(void)
{
	gfp_t gfp = account ? GFP_KERNEL_ACCOUNT : GFP_KERNEL;

	measure(gfp, 0);
	measure(gfp, 2);
	return -EAGAIN;
}
module_init(pagebench_init);

MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("tally's page benchmarks on Linux");
