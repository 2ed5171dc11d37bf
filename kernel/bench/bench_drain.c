// SPDX-License-Identifier: MIT
/*
 * kernel/bench/bench_drain.c - a drain of every CPU's stock for one
 * domain (drain_all_stock) when C CPUs' stocks hold its charge, C = 1 to
 * the number of CPUs (at most 8):
 *
 *   bench drain cpus=C median_cycles=N cpus_interrupted=K
 *
 * median_cycles: what the drain costs the CPU that asks for it, the wait
 * for the others included; cpus_interrupted: the CPUs that drained (sent
 * an IPI, or the caller itself if its stock held the domain's charge).
 * Only the C CPUs whose stock holds the domain drain, as in Linux, so K
 * is C, not the number of CPUs. The stocks are filled before each drain,
 * by an IPI to the C CPUs (untimed): each charges a page to the domain
 * and frees it, which leaves the rest of the batch in its stock.
 */
#include <stdlib.h>

#include "arch/x86_64/io.h"
#include "kernel/bench/bench.h"
#include "kernel/base/platform.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"

#define DRAIN_ROUNDS 101
#define DRAIN_CPUS_MAX 8

static uint64_t drain_samples[DRAIN_ROUNDS];

struct drain_run {
	struct mem_cgroup *memcg;
	unsigned int cpus;  /* CPUs 0 .. cpus-1 fill their stocks */
};

static bool among_first(unsigned int cpu, void *arg)
{
	return cpu < ((struct drain_run *)arg)->cpus;
}

/* fill_stock - on each chosen CPU, interrupts off: one page charged and
 * freed, so that the stock holds the rest of the batch. */
static void fill_stock(void *arg)
{
	struct drain_run *run = arg;

	if (memcg_charge_kmem(run->memcg, GFP_ATOMIC, 1) != 0)
		panic("bench drain: a charge was refused");
	memcg_uncharge_kmem(run->memcg, 1);
}

static void drain_with(struct mem_cgroup *memcg)
{
	unsigned int top = nr_cpus < DRAIN_CPUS_MAX ? nr_cpus
						    : DRAIN_CPUS_MAX;

	for (unsigned int c = 1; c <= top; c++) {
		struct drain_run run = {memcg, c};
		unsigned int drained = 0;

		for (unsigned int r = 0; r < DRAIN_ROUNDS; r++) {
			uint64_t start;

			if (smp_call_function_some(among_first, fill_stock,
						   &run) != c)
				panic("bench drain: %u CPUs asked to fill "
				      "their stock, not all did", c);
			start = rdtsc_ordered();
			drained = drain_all_stock(memcg);
			drain_samples[r] = rdtsc_ordered() - start;
		}
		printk("bench drain cpus=%u median_cycles=%lu "
		       "cpus_interrupted=%u\n", c,
		       (unsigned long)bench_stats(drain_samples, DRAIN_ROUNDS,
						  DRAIN_ROUNDS).median_cycles,
		       drained);
	}
}

static void bench_drain(void)
{
	with_accounted_domain(drain_with);
}
BENCH(drain);
