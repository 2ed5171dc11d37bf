/* SPDX-License-Identifier: MIT */
/*
 * kernel/bench/bench.h - in-kernel benchmarks, run by `bench [NAME]` at the
 * shell and by `make bench`.
 *
 * Each benchmark times an operation with the TSC over many rounds and
 * prints one line (its format: docs/interface.md):
 *
 *   bench NAME median_cycles=N p99_cycles=N ops=N
 *
 * where a sample is the mean cost of one operation over a round of
 * BENCH_BATCH operations, and median/p99 are taken over the rounds. Cycles
 * are meaningful under KVM or on hardware, not under software emulation;
 * under QEMU's `-icount shift=0,sleep=off` the TSC advances one per guest
 * instruction, so the same fields count instructions (`make bench` uses
 * that yardstick without hardware virtualisation).
 *
 * The SMP charge benchmarks (kernel/bench/bench_charge.c) also print their
 * scaling curve as "# NAME cpus=K median_cycles=N" lines and, on a NUMA
 * machine, one "bench NAME node=N median_cycles=N p99_cycles=N ops=N" line
 * per node (that node's CPUs alone); `make bench` reads them all.
 *
 *   static void bench_page_order0(void)
 *   {
 *           struct bench_result r = bench_time(op, arg);
 *
 *           bench_print("page_order0", &r);
 *   }
 *   BENCH(page_order0);
 */
#ifndef KERNEL_BENCH_H
#define KERNEL_BENCH_H

#include <stdint.h>

#include "kernel/base/section_table.h"

#define BENCH_BATCH 256    /* operations per timed round */
#define BENCH_ROUNDS 501   /* timed rounds (odd: a true median) */
#define BENCH_WARMUP 200   /* untimed rounds first */

struct bench_case {
	const char *name;
	void (*fn)(void);
};

#define BENCH(ident) \
	static const struct bench_case bench_case_##ident \
		SECTION_TABLE_ENTRY(benches) = {#ident, bench_##ident}

struct bench_result {
	uint64_t median_cycles;
	uint64_t p99_cycles;
	unsigned long ops;
};

/*
 * bench_time - run op(arg) BENCH_WARMUP rounds, then BENCH_ROUNDS timed
 * rounds of BENCH_BATCH calls each, with interrupts off during a round;
 * return the median and 99th percentile cost per call.
 */
struct bench_result bench_time(void (*op)(void *), void *arg);

struct mem_cgroup;

/* bench_time_as - bench_time with memcg as the active domain
 * (set_active_memcg): the allocations op makes are charged to it. */
struct bench_result bench_time_as(struct mem_cgroup *memcg,
				  void (*op)(void *), void *arg);

/* bench_print - the `bench` line for one benchmark. */
void bench_print(const char *name, const struct bench_result *r);

/* bench_stats - median and p99 of n samples (sorted in place). */
struct bench_result bench_stats(uint64_t *samples, unsigned int n,
				unsigned long ops);

/* with_accounted_domain - run fn with a fresh domain (not in /cgroup) that
 * has a 1 GiB kmem limit, so its kernel allocations are charged; then
 * remove it. */
void with_accounted_domain(void (*fn)(struct mem_cgroup *));

#endif
