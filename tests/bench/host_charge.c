// SPDX-License-Identifier: MIT
/*
 * tests/bench/host_charge.c - the real mm/ charge path on every host CPU at
 * once, in the shape of Waiman Long's 2021 measurement: each thread
 * allocates and frees pages in one domain, as fast as it can.
 *
 * The mm/ sources are the kernel's own, built for the host (the platform
 * interface of tests/unit/host_platform.h: each thread is a CPU), without
 * sanitizers and at -O2. Four runs, each RUN_SECONDS long, all threads
 * together, and one line each:
 *
 *   host_charge unaccounted threads=N kops_per_s=N
 *   host_charge accounted threads=N kops_per_s=N ratio=R transfers_per_1k=N
 *   host_charge oldkmem threads=N kops_per_s=N ratio=R transfers_per_1k=N
 *   host_charge nostock threads=N kops_per_s=N ratio=R transfers_per_1k=N
 *
 * unaccounted: alloc_pages(GFP_KERNEL, 0) + free_pages; accounted: the
 * same with GFP_ACCOUNT in a domain with a kmem limit, the stocked path we
 * run; oldkmem: kernel charges not stocked (each page charged exactly on
 * the shared res and kmem counters, as 2012 charged kmem,
 * memcg_stock_set_kmem(false)); nostock: no stock at all. ratio
 * is against unaccounted; one op is one alloc+free.
 *
 * Usage: build/host/bench_charge [THREADS [SECONDS]] (default: every CPU
 * of the host, 2 seconds).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "kernel/cgroup/cgroupfs.h"
#include "kernel/task/task.h"
#include "mm/buddy.h"
#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"
#include "tests/unit/host_mem.h"

#define HOST_RAM (256ul << 20)

static struct mem_cgroup *domain;
static unsigned int nthreads;
static double run_seconds = 2.0;
static volatile int go, stop;
static gfp_t run_gfp;

struct worker {
	pthread_t thread;
	unsigned int cpu;
	struct task *task;
	unsigned long ops;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned long ops = 0;

	host_set_cpu(w->cpu);
	host_set_current(w->task);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (int i = 0; i < 64; i++) {
			struct page *page = alloc_pages(run_gfp, 0);

			if (!page) {
				fprintf(stderr, "host_charge: allocation "
					"failed\n");
				exit(1);
			}
			free_accounted_pages(page, 0);
		}
		ops += 64;
	}
	w->ops = ops;
	return NULL;
}

static unsigned long transfers(void)
{
	return line_transfers(&domain->res.line) +
	       line_transfers(&domain->kmem.line) +
	       line_transfers(&domain->refcnt_line);
}

/* run - all threads for run_seconds; returns kilo-ops per second, and
 * the line transfers per 1000 ops in *per_1k. */
static double run(struct worker *w, gfp_t gfp, unsigned long *per_1k)
{
	unsigned long ops = 0, before = transfers();
	double start;

	run_gfp = gfp;
	go = 0;
	stop = 0;
	for (unsigned int i = 0; i < nthreads; i++)
		pthread_create(&w[i].thread, NULL, work, &w[i]);
	start = now();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	usleep((useconds_t)(run_seconds * 1e6));
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < nthreads; i++) {
		pthread_join(w[i].thread, NULL);
		ops += w[i].ops;
	}
	*per_1k = ops ? (transfers() - before) * 1000 / ops : 0;
	if (getenv("HOST_CHARGE_DEBUG"))
		fprintf(stderr, "ops %lu transfers %lu\n", ops, transfers() - before);
	return ops / (now() - start) / 1000.0;
}

int main(int argc, char **argv)
{
	struct worker w[NR_CPUS];
	double base, kops;
	unsigned long per_1k;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	nthreads = argc > 1 ? (unsigned int)atoi(argv[1]) : (unsigned int)cpus;
	if (argc > 2)
		run_seconds = atof(argv[2]);
	if (nthreads < 1 || nthreads > NR_CPUS) {
		fprintf(stderr, "usage: %s [THREADS (1..%d) [SECONDS]]\n",
			argv[0], NR_CPUS);
		return 2;
	}
	setenv("HOST_QUIET", "1", 0);
	host_mem_init(HOST_RAM);
	if (cgroupfs_init())
		return 1;
	nr_cpus = nthreads;
	if (mem_cgroup_create(root_mem_cgroup, "bench", &domain) ||
	    memcg_update_kmem_limit(domain, 1ll << 30)) {
		fprintf(stderr, "host_charge: cannot make the domain\n");
		return 1;
	}
	for (unsigned int i = 0; i < nthreads; i++) {
		w[i].cpu = i;
		w[i].task = calloc(1, sizeof(struct task));
		w[i].task->pid = 100 + (int)i;
		if (mem_cgroup_attach_task(domain, w[i].task))
			return 1;
	}

	/* Count line transfers (off by default: a NOP per shared write). */
	line_transfer_count_start();
	base = run(w, GFP_KERNEL, &per_1k);
	printf("host_charge unaccounted threads=%u kops_per_s=%.0f\n",
	       nthreads, base);

	kops = run(w, GFP_ACCOUNT, &per_1k);
	printf("host_charge accounted threads=%u kops_per_s=%.0f ratio=%.2f "
	       "transfers_per_1k=%lu\n", nthreads, kops, kops / base, per_1k);

	memcg_stock_set_kmem(false);
	kops = run(w, GFP_ACCOUNT, &per_1k);
	printf("host_charge oldkmem threads=%u kops_per_s=%.0f ratio=%.2f "
	       "transfers_per_1k=%lu\n", nthreads, kops, kops / base, per_1k);
	memcg_stock_set_kmem(true);

	memcg_stock_set_enabled(false);
	kops = run(w, GFP_ACCOUNT, &per_1k);
	printf("host_charge nostock threads=%u kops_per_s=%.0f ratio=%.2f "
	       "transfers_per_1k=%lu\n", nthreads, kops, kops / base, per_1k);
	memcg_stock_set_enabled(true);
	line_transfer_count_stop();
	return 0;
}
