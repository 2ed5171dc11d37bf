/* SPDX-License-Identifier: MIT */
/*
 * kernel/bench/bench_fork.h - the cost of fork + exit + reap (the
 * fork_exit and fork_exit_accounted benchmarks).
 */
#ifndef KERNEL_BENCH_FORK_H
#define KERNEL_BENCH_FORK_H

#include <stdint.h>

#define FORK_EXIT_OPS 201  /* forks timed (odd: a true median) */

/*
 * fork_exit_samples - a task in the root domain forks a child that exits
 * at once, and waits for it (wait: until its stack is freed, and reaps
 * it), FORK_EXIT_OPS times; samples[i] is the TSC cycles of the i-th
 * fork + exit + reap. Returns how many were timed (FORK_EXIT_OPS, or
 * fewer if a fork failed). From a system task (the shell).
 */
unsigned int fork_exit_samples(uint64_t *samples);

struct mem_cgroup;

/* fork_exit_samples_in - the same with the forking task (so its children)
 * in memcg, which charges their stacks if memcg is accounted. */
unsigned int fork_exit_samples_in(struct mem_cgroup *memcg, uint64_t *samples);

#endif
