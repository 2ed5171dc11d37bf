// SPDX-License-Identifier: MIT
/*
 * kernel/bench/bench_charge.c - charging one domain from many CPUs at
 * once: does the per-CPU stock keep the shared counters' cache lines from
 * moving between CPUs?
 *
 * One operation is what an accounted page costs its domain: a kernel
 * charge of one page (memcg_charge_kmem) and its uncharge
 * (memcg_uncharge_kmem), as alloc_pages and free_accounted_pages make
 * them. Three ways:
 *
 *   charge_smp_stock    the path we run: the stock serves res and kmem,
 *                       and the uncharge goes back to it; a pair writes
 *                       only this CPU's data (a batch every 32 pages when
 *                       the stock runs dry - here, never)
 *   charge_smp_nostock  stocks off: each pair charges and uncharges the
 *                       shared res and kmem counters and the domain's
 *                       reference count
 *   charge_smp_oldkmem  kernel charges not stocked: each page charged
 *                       and uncharged exactly on the shared res and kmem
 *                       counters, with a reference per page, as the 2012
 *                       series charged kmem (memcg_stock_set_kmem(false));
 *                       charge_smp_kmem is
 *                       the same run under the name the bench harness
 *                       knows
 *
 * Besides time, each run counts line transfers (mm/line_transfer.h):
 * writes to a shared counter's cache line (the domain's res and kmem
 * counters and its reference count) by a CPU other than the line's last
 * writer - what would move the line between caches on real hardware, and
 * what TCG, which models no cache, cannot show in its timings. The count
 * is per 1000 charge+uncharge pairs. Counting costs a few instructions
 * per shared write, so it is on (line_transfer_count_start) only while
 * these runs take their samples.
 *
 * Each CPU runs pairs for CHARGE_SAMPLE_MS milliseconds of TSC time per
 * sample (a fixed time rather than a fixed count: with the stock off,
 * CPUs that are host threads on fewer host cores - QEMU's TCG on a loaded
 * machine - can take a millisecond to get a contended line, and a fixed
 * count would take minutes). The figures are per CPU: median cycles per
 * pair over samples and CPUs, and `ops` is the pairs made per CPU (the
 * mean over the CPUs taking part). The scaling curve repeats the run with
 * CPUs 0..K-1 taking part, K = 1, 2, ... all, each two "# " lines; the
 * `bench` line is the run with all CPUs:
 *
 *   # charge_smp_stock cpus=2 median_cycles=N
 *   # charge_smp_stock cpus=2 transfers_per_1k=N
 *   bench charge_smp_stock median_cycles=N p99_cycles=N ops=N \
 *         transfers_per_1k=N
 *
 * On a NUMA machine (more than one node, mm/numa.h) each node's CPUs are
 * also run on their own, one extra line per node with CPUs; "node=N"
 * stands where a parser of `bench` lines expects median_cycles, so these
 * lines are never mistaken for the all-CPU figure:
 *
 *   bench charge_smp_stock node=1 median_cycles=N p99_cycles=N ops=N \
 *         transfers_per_1k=N
 *
 * Per-CPU throughput at K CPUs, relative to one CPU's, is the one-CPU
 * median divided by the K-CPU median: 100% is perfect scaling.
 *
 * The work runs in the function-call IPI on each CPU
 * (smp_call_function_all), so it calls the charge functions directly,
 * with GFP_ATOMIC (never drain or reclaim from an interrupt handler),
 * rather than through the page allocator's hooks, which do not charge
 * from interrupt context.
 */
#include <stdbool.h>

#include "arch/x86_64/io.h"
#include "arch/x86_64/lapic.h"
#include "kernel/bench/bench.h"
#include "kernel/base/platform.h"
#include "mm/buddy.h"
#include "mm/memcg/memcontrol.h"
#include "mm/numa.h"
#include "mm/memcg/stock.h"

#define CHARGE_SAMPLE_MS 5   /* charging time per CPU per sample */
#define CHARGE_SAMPLES 31
#define CHARGE_MAX_OPS 30000  /* per CPU per sample: 8 CPUs fit in 1 GiB */
#define CHARGE_CLOCK_EVERY 16 /* charges between two looks at the TSC */

struct charge_run {
	struct mem_cgroup *memcg;
	bool takes_part[NR_CPUS];
	unsigned int cpus;           /* how many take part */
	volatile unsigned int arrived;
	uint64_t duration;           /* TSC cycles of charging per sample */
	uint64_t cycles[NR_CPUS];    /* per CPU: cycles per charge */
	unsigned long ops[NR_CPUS];  /* per CPU: charges, all samples */
	volatile bool refused;       /* a charge failed: limits too small */
};

/* charge_pair - what one accounted page costs its domain. */
static int charge_pair(struct charge_run *run)
{
	if (memcg_charge_kmem(run->memcg, GFP_ATOMIC, 1) != 0)
		return -1;
	memcg_uncharge_kmem(run->memcg, 1);
	return 0;
}

/* transfers - line transfers so far on memcg's shared lines. */
static unsigned long transfers(struct mem_cgroup *memcg)
{
	return line_transfers(&memcg->res.line) +
	       line_transfers(&memcg->kmem.line) +
	       line_transfers(&memcg->refcnt_line);
}

static void charge_loop(void *arg)
{
	struct charge_run *run = arg;
	unsigned int cpu = smp_processor_id();
	unsigned int done = 0;
	uint64_t start, now;

	if (!run->takes_part[cpu])
		return;
	/* Start together, so that the CPUs really contend. */
	__atomic_fetch_add(&run->arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&run->arrived, __ATOMIC_ACQUIRE) < run->cpus)
		cpu_relax();
	start = now = rdtsc_ordered();
	while (now - start < run->duration && done < CHARGE_MAX_OPS) {
		for (int i = 0; i < CHARGE_CLOCK_EVERY; i++, done++)
			if (charge_pair(run) != 0) {
				run->refused = true;
				goto out;
			}
		now = rdtsc_ordered();
	}
out:
	now = rdtsc_ordered();
	run->cycles[cpu] = done ? (now - start) / done : 0;
	run->ops[cpu] += done;
}

static bool first_k_cpus(unsigned int cpu, unsigned int k)
{
	return cpu < k;
}

static bool cpu_of_node(unsigned int cpu, unsigned int nid)
{
	return cpu_to_node(cpu) == nid;
}

/*
 * A set of CPUs charging together: CPUs 0..K-1 for the curve, or one
 * node's CPUs; with the samples taken so far (cycles per charge, one per
 * CPU per sample) and the charges made.
 */
struct charge_config {
	bool (*takes_part)(unsigned int cpu, unsigned int key);
	unsigned int key;
	unsigned int cpus;
	uint64_t *samples;
	unsigned int nr_samples;
	unsigned long ops;        /* pairs, all CPUs */
	unsigned long transfers;  /* line transfers meanwhile */
};

/* sample - one run of the config's CPUs charging together. */
static void sample(struct mem_cgroup *memcg, struct charge_config *c)
{
	static struct charge_run run;
	unsigned long before = transfers(memcg);

	run.memcg = memcg;
	run.cpus = c->cpus;
	run.arrived = 0;
	run.duration = tsc_khz * CHARGE_SAMPLE_MS;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		run.takes_part[cpu] = cpu < nr_cpus &&
				      c->takes_part(cpu, c->key);
		run.ops[cpu] = 0;
	}
	smp_call_function_all(charge_loop, &run);
	c->transfers += transfers(memcg) - before;
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		if (!run.takes_part[cpu])
			continue;
		c->samples[c->nr_samples++] = run.cycles[cpu];
		c->ops += run.ops[cpu];
	}
	if (run.refused)
		printk("# bench: a charge was refused (limit too small?)\n");
}

static const char *charge_name;
static bool charge_stock, charge_old_kmem;

/* per_1k - transfers per 1000 pairs, rounded. */
static unsigned long per_1k(const struct charge_config *c)
{
	return c->ops ? (c->transfers * 1000 + c->ops / 2) / c->ops : 0;
}

/*
 * charge_smp_in - the configs are sampled in turn, round after round (not
 * one config's samples, then the next's), so that a change in the load of
 * the host under a virtual machine spreads over all of them alike instead
 * of bending the curve.
 */
static void charge_smp_in(struct mem_cgroup *memcg)
{
	static struct charge_config configs[NR_CPUS + MAX_NUMNODES];
	unsigned int nr_configs = 0, slots = 0, order;
	struct page *store;
	uint64_t *next;

	for (unsigned int k = 1; k <= nr_cpus; k++)
		configs[nr_configs++] = (struct charge_config){
			.takes_part = first_k_cpus, .key = k};
	for (unsigned int nid = 0; nr_node_ids > 1 && nid < nr_node_ids; nid++)
		configs[nr_configs++] = (struct charge_config){
			.takes_part = cpu_of_node, .key = nid};
	for (unsigned int i = 0; i < nr_configs; i++) {
		struct charge_config *c = &configs[i];

		for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
			c->cpus += c->takes_part(cpu, c->key);
		slots += CHARGE_SAMPLES * c->cpus;
	}
	order = get_order(slots * sizeof(uint64_t));
	store = order <= MAX_ORDER ? alloc_pages(GFP_KERNEL, order) : NULL;
	if (!store) {
		printk("# bench %s: no memory for the samples\n", charge_name);
		return;
	}
	next = page_address(store);
	for (unsigned int i = 0; i < nr_configs; i++) {
		configs[i].samples = next;
		next += CHARGE_SAMPLES * configs[i].cpus;
	}

	memcg_stock_set_enabled(charge_stock);
	memcg_stock_set_kmem(!charge_old_kmem);
	line_transfer_count_start();
	for (int s = 0; s < CHARGE_SAMPLES; s++)
		for (unsigned int i = 0; i < nr_configs; i++)
			if (configs[i].cpus)
				sample(memcg, &configs[i]);
	line_transfer_count_stop();
	drain_all_stock(memcg);
	memcg_stock_set_kmem(true);
	memcg_stock_set_enabled(true);

	for (unsigned int i = 0; i < nr_configs; i++) {
		struct charge_config *c = &configs[i];
		struct bench_result r;

		if (!c->cpus)
			continue;  /* a node without CPUs */
		r = bench_stats(c->samples, c->nr_samples, c->ops / c->cpus);
		if (c->takes_part == first_k_cpus) {
			printk("# %s cpus=%u median_cycles=%lu\n", charge_name,
			       c->key, (unsigned long)r.median_cycles);
			printk("# %s cpus=%u transfers_per_1k=%lu\n",
			       charge_name, c->key, per_1k(c));
			if (c->key == nr_cpus)
				printk("bench %s median_cycles=%lu "
				       "p99_cycles=%lu ops=%lu "
				       "transfers_per_1k=%lu\n", charge_name,
				       (unsigned long)r.median_cycles,
				       (unsigned long)r.p99_cycles, r.ops,
				       per_1k(c));
		} else {
			printk("bench %s node=%u median_cycles=%lu "
			       "p99_cycles=%lu ops=%lu transfers_per_1k=%lu\n",
			       charge_name, c->key,
			       (unsigned long)r.median_cycles,
			       (unsigned long)r.p99_cycles, r.ops, per_1k(c));
		}
	}
	free_pages(store, order);
}

static void charge_smp(const char *name, bool stock, bool old_kmem)
{
	charge_name = name;
	charge_stock = stock;
	charge_old_kmem = old_kmem;
	with_accounted_domain(charge_smp_in);
}

static void bench_charge_smp_stock(void)
{
	charge_smp("charge_smp_stock", true, false);
}
BENCH(charge_smp_stock);

static void bench_charge_smp_nostock(void)
{
	charge_smp("charge_smp_nostock", false, false);
}
BENCH(charge_smp_nostock);

static void bench_charge_smp_oldkmem(void)
{
	charge_smp("charge_smp_oldkmem", true, true);
}
BENCH(charge_smp_oldkmem);

static void bench_charge_smp_kmem(void)
{
	charge_smp("charge_smp_kmem", true, true);
}
BENCH(charge_smp_kmem);
