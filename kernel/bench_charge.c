/*
 * kernel/bench_charge.c - charging one domain from every CPU at once.
 *
 *   charge_smp_stock    each CPU charges and uncharges one page at a time,
 *                       through its per-CPU stock
 *   charge_smp_nostock  the same with the stock disabled: every charge
 *                       takes the shared counter's lock, and its cache line
 *                       moves from CPU to CPU
 *
 * The figures are per CPU: cycles per charge+uncharge and operations on
 * each CPU. For the scaling curve, the run is repeated with 1, 2, ... all
 * CPUs taking part, and each printed as a "# " line:
 *
 *   # charge_smp_stock cpus=2 median_cycles=N
 *
 * The work runs in the function-call IPI on each CPU (smp_call_function_all),
 * so it calls the charge functions directly rather than through the page
 * allocator's hooks, which do not charge from interrupt context.
 */
#include <stdbool.h>

#include "arch/x86_64/io.h"
#include "kernel/bench.h"
#include "kernel/platform.h"
#include "mm/memcontrol.h"
#include "mm/stock.h"

#define CHARGE_OPS 20000  /* charge+uncharge pairs per CPU per sample */
#define CHARGE_SAMPLES 5

struct charge_run {
	struct mem_cgroup *memcg;
	unsigned int cpus;          /* CPUs 0..cpus-1 take part */
	volatile unsigned int arrived;
	uint64_t cycles[NR_CPUS];   /* per CPU: cycles per operation */
};

static void charge_loop(void *arg)
{
	struct charge_run *run = arg;
	unsigned int cpu = smp_processor_id();

	if (cpu >= run->cpus)
		return;
	/* Start together, so that the CPUs really contend. */
	__atomic_fetch_add(&run->arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&run->arrived, __ATOMIC_ACQUIRE) < run->cpus)
		cpu_relax();
	uint64_t start = rdtsc_ordered();
	for (int i = 0; i < CHARGE_OPS; i++) {
		if (memcg_charge_kmem(run->memcg, GFP_KERNEL, 1) == 0)
			memcg_uncharge_kmem(run->memcg, 1);
	}
	run->cycles[cpu] = (rdtsc_ordered() - start) / CHARGE_OPS;
}

/* measure - median over samples and CPUs of the per-operation cost. */
static struct bench_result measure(struct mem_cgroup *memcg, unsigned int cpus)
{
	static uint64_t all[CHARGE_SAMPLES * NR_CPUS];
	static struct charge_run run;
	unsigned int n = 0;

	for (int s = 0; s < CHARGE_SAMPLES; s++) {
		run.memcg = memcg;
		run.cpus = cpus;
		run.arrived = 0;
		smp_call_function_all(charge_loop, &run);
		for (unsigned int c = 0; c < cpus; c++)
			all[n++] = run.cycles[c];
	}
	drain_all_stock(memcg);
	return bench_stats(all, n, (unsigned long)CHARGE_SAMPLES * CHARGE_OPS);
}

static const char *charge_name;
static bool charge_stock;

static void charge_smp_in(struct mem_cgroup *memcg)
{
	memcg_stock_set_enabled(charge_stock);
	for (unsigned int cpus = 1; cpus <= nr_cpus; cpus++) {
		struct bench_result r = measure(memcg, cpus);
		printk("# %s cpus=%u median_cycles=%lu\n", charge_name, cpus,
		       (unsigned long)r.median_cycles);
		if (cpus == nr_cpus)
			bench_print(charge_name, &r);
	}
	memcg_stock_set_enabled(true);
}

static void charge_smp(const char *name, bool stock)
{
	charge_name = name;
	charge_stock = stock;
	with_accounted_domain(charge_smp_in);
}

static void bench_charge_smp_stock(void)
{
	charge_smp("charge_smp_stock", true);
}
BENCH(charge_smp_stock);

static void bench_charge_smp_nostock(void)
{
	charge_smp("charge_smp_nostock", false);
}
BENCH(charge_smp_nostock);
