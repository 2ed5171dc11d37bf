// SPDX-License-Identifier: MIT
/*
 * kernel/bench/bench_fork.c - fork + exit + reap, timed with the TSC: the
 * `fork_exit` benchmark (docs/interface.md), also reported by `ktest
 * sched_fork_exit_cycles`, and `fork_exit_accounted`, the same in a domain
 * with a kmem limit, whose every child's stack is charged and uncharged.
 *
 * One operation is: prog_fork() in the parent (stack allocated and
 * charged, task made, placed on a CPU), the child's run and exit, its last
 * switch, the reaper freeing its stack, and the parent's wait reaping it.
 * Cycles are meaningful under KVM or on hardware; under QEMU's icount
 * (`make bench` without hardware virtualisation) they are instructions.
 */
#include "kernel/bench/bench_fork.h"

#include "arch/x86_64/io.h"
#include "kernel/bench/bench.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/fork.h"
#include "kernel/base/platform.h"
#include "kernel/sched/program.h"
#include "kernel/task/task_ops.h"
#include "mm/memcg/memcontrol.h"

static uint64_t *timed;
static unsigned int nr_timed;
/* The first task to run the program is the parent (it runs before any
 * child exists); the children, running the same program, exit at once. */
static int parent_claimed;

static void fork_timer_main(struct task *self, const char *arg)
{
	if (__atomic_exchange_n(&parent_claimed, 1, __ATOMIC_SEQ_CST))
		return;
	for (unsigned int i = 0; i < FORK_EXIT_OPS; i++) {
		uint64_t t0 = rdtsc_ordered();
		int pid = prog_fork(self);

		if (pid < 0)
			return;
		kernel_enter(self);
		task_wait(pid);
		kernel_leave(self);
		timed[i] = rdtsc_ordered() - t0;
		nr_timed = i + 1;
	}
}

static const struct program fork_timer = {"forktimer", fork_timer_main,
					  NULL, NULL};

unsigned int fork_exit_samples_in(struct mem_cgroup *memcg, uint64_t *samples)
{
	int pid;

	timed = samples;
	nr_timed = 0;
	__atomic_store_n(&parent_claimed, 0, __ATOMIC_SEQ_CST);
	pid = task_spawn(memcg, &fork_timer, "");
	if (pid < 0 || task_wait(pid) < 0)
		return 0;
	return nr_timed;
}

unsigned int fork_exit_samples(uint64_t *samples)
{
	return fork_exit_samples_in(root_mem_cgroup, samples);
}

static void fork_exit_in(const char *name, struct mem_cgroup *memcg)
{
	static uint64_t samples[FORK_EXIT_OPS];
	unsigned int n = fork_exit_samples_in(memcg, samples);
	struct bench_result r;

	if (n == 0) {
		printk("# bench %s: no task could be forked\n", name);
		return;
	}
	r = bench_stats(samples, n, n);
	bench_print(name, &r);
}

static void bench_fork_exit(void)
{
	fork_exit_in("fork_exit", root_mem_cgroup);
}
BENCH(fork_exit);

static void fork_exit_accounted(struct mem_cgroup *memcg)
{
	fork_exit_in("fork_exit_accounted", memcg);
}

static void bench_fork_exit_accounted(void)
{
	with_accounted_domain(fork_exit_accounted);
}
BENCH(fork_exit_accounted);
