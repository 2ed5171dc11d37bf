/* SPDX-License-Identifier: MIT */
/*
 * kernel/programs/forkbomb_stats.h - what every forkbomb task's forks got,
 * counted by the bombs themselves (kernel/programs/programs.c), as an
 * instrumented user-space bomb would count them: forks that worked, and
 * refused ones by error. `contain` (kernel/programs/contain.c) zeroes them
 * before its bomb and reads them after. Atomic counters, any CPU.
 */
#ifndef KERNEL_PROGRAMS_FORKBOMB_STATS_H
#define KERNEL_PROGRAMS_FORKBOMB_STATS_H

#include <stdint.h>

struct forkbomb_stats {
	uint64_t forks_ok;
	uint64_t enomem;  /* refused: ENOMEM (a memory limit, or no memory) */
	uint64_t eagain;  /* refused: EAGAIN (pids.max) */
	uint64_t other;   /* refused with another error */
};

extern struct forkbomb_stats forkbomb_stats;

#endif
