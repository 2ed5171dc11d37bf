/* SPDX-License-Identifier: MIT */
/*
 * kernel/programs/worker_share.h - the measurements of a worker that runs
 * next to a fork bomb (docs/design.md, "The demonstration's figures"):
 *
 *   rate   its units of work per second, by the TSC - the host's clock
 *          under TCG, so a host that deschedules QEMU's vCPU thread makes
 *          it drop, whatever the kernel does;
 *   share  the CPU time it ran against its fair share on its CPU, by the
 *          scheduler's own clock (sched_cpu_times), which a loaded host
 *          does not move;
 *   shell  how long the shell, woken by a timer, waited for the CPU: the
 *          wait a key press would see.
 */
#ifndef KERNEL_PROGRAMS_WORKER_SHARE_H
#define KERNEL_PROGRAMS_WORKER_SHARE_H

#include <stdint.h>

/* The worker's CPU time over some samples, and what it was owed; and how
 * long the shell waited for the CPU after its sleeps. */
struct worker_share {
	uint64_t total, got, owed;
	unsigned int samples, moved;
	uint64_t shell_wait_ms;  /* the most, over the samples */
};

/* tsc_us - microseconds by the TSC. */
uint64_t tsc_us(void);

/*
 * worker_measure - over the next ms milliseconds: the rate of the worker
 * with PID worker_pid in units per second (by the wall clock), and its
 * CPU time against its fair share (by the scheduler's clock), sampled
 * every SHARE_SAMPLE_MS, into *sh. The shell sleeps between samples (this
 * runs in the shell, a system task), and measures how long it waits for
 * the CPU once woken. A worker that is gone counts no work and no share.
 */
uint64_t worker_measure(int worker_pid, unsigned int ms,
			struct worker_share *sh);

/* percent - part as a percentage of whole (0 if whole is 0). */
unsigned long percent(uint64_t part, uint64_t whole);

#endif
