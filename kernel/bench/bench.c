// SPDX-License-Identifier: MIT
/*
 * kernel/bench/bench.c - the benchmark runner: timing with the TSC, statistics,
 * and the `bench [NAME]` shell command.
 */
#include "kernel/bench/bench.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86_64/io.h"
#include "kernel/base/platform.h"
#include "kernel/base/shell_command.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg_hooks.h"

static uint64_t samples[BENCH_ROUNDS];

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

struct bench_result bench_stats(uint64_t *s, unsigned int n, unsigned long ops)
{
	struct bench_result r = {0, 0, ops};
	if (n == 0)
		return r;
	qsort(s, n, sizeof(*s), compare_u64);
	r.median_cycles = s[n / 2];
	r.p99_cycles = s[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1];
	return r;
}

struct bench_result bench_time(void (*op)(void *), void *arg)
{
	for (int round = 0; round < BENCH_WARMUP; round++)
		for (int i = 0; i < BENCH_BATCH; i++)
			op(arg);
	for (int round = 0; round < BENCH_ROUNDS; round++) {
		unsigned long flags = local_irq_save();
		uint64_t start = rdtsc_ordered();
		for (int i = 0; i < BENCH_BATCH; i++)
			op(arg);
		uint64_t end = rdtsc_ordered();
		local_irq_restore(flags);
		samples[round] = (end - start) / BENCH_BATCH;
	}
	return bench_stats(samples, BENCH_ROUNDS,
			   (unsigned long)BENCH_ROUNDS * BENCH_BATCH);
}

struct bench_result bench_time_as(struct mem_cgroup *memcg,
				  void (*op)(void *), void *arg)
{
	struct mem_cgroup *old = set_active_memcg(memcg);
	struct bench_result r = bench_time(op, arg);

	set_active_memcg(old);
	return r;
}

void bench_print(const char *name, const struct bench_result *r)
{
	printk("bench %s median_cycles=%lu p99_cycles=%lu ops=%lu\n", name,
	       (unsigned long)r->median_cycles, (unsigned long)r->p99_cycles,
	       r->ops);
}

void with_accounted_domain(void (*fn)(struct mem_cgroup *))
{
	struct mem_cgroup *memcg;
	if (mem_cgroup_create(root_mem_cgroup, "bench", &memcg) < 0 ||
	    memcg_update_kmem_limit(memcg, 1ll << 30) < 0) {
		printk("# bench: cannot create an accounted domain\n");
		return;
	}
	fn(memcg);
	if (mem_cgroup_destroy(memcg) < 0)
		printk("# bench: cannot remove the bench domain\n");
}

/* selected - whether the benchmark is chosen by the argument of `bench`:
 * none (all of them), its name, or a prefix followed by '*'
 * ("charge_smp_*", as `make bench` asks for the SMP ones). */
static bool selected(const char *name, const char *only)
{
	size_t n;

	if (!only)
		return true;
	n = strlen(only);
	if (n > 0 && only[n - 1] == '*')
		return !strncmp(name, only, n - 1);
	return !strcmp(name, only);
}

static int cmd_bench(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	int ran = 0;

	if (argc > 2)
		return shell_error(EINVAL, "usage: bench [NAME | PREFIX*]");
	section_table_for_each(const struct bench_case, benches, c) {
		if (selected(c->name, only))
			ran++;
	}
	if (only && !ran)
		return shell_error(ENOENT, "no benchmark named '%s'", only);
	section_table_for_each(const struct bench_case, benches, c) {
		if (selected(c->name, only))
			c->fn();
	}
	return 0;
}
SHELL_COMMAND(bench, "bench [NAME | PREFIX*]",
	      "run benchmarks: bench NAME median_cycles=N p99_cycles=N ops=N");
