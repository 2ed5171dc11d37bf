// SPDX-License-Identifier: MIT
/*
 * tests/linux-compare/compare.c - the fork bomb and the worker of tally's
 * demonstration (docs/design.md), as Linux programs, for
 * tests/linux-compare/run.
 *
 *   compare worker SECS   units of CPU work (the same unit as tally's
 *                         worker, kernel/programs/programs.c); one line a second:
 *                         "rate N cpu M" - units in that second, and the
 *                         per mille of the second it ran (schedstat)
 *   compare bomb          forks copies of itself as fast as it can; on
 *                         failure backs off 1 ms and tries again
 *
 * Static, no libc beyond the basics: it runs from a busybox initramfs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WORK_UNIT_ITERATIONS 20000

static void work_unit(void)
{
	volatile uint64_t x = 1;

	for (int i = 0; i < WORK_UNIT_ITERATIONS; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* runtime_ns - the time this task has run (first field of schedstat). */
static unsigned long long runtime_ns(void)
{
	unsigned long long run = 0;
	FILE *f = fopen("/proc/self/schedstat", "r");

	if (f) {
		if (fscanf(f, "%llu", &run) != 1)
			run = 0;
		fclose(f);
	}
	return run;
}

static void worker(int secs)
{
	for (int s = 0; s < secs; s++) {
		double t0 = now(), t;
		unsigned long long r0 = runtime_ns(), units = 0;

		while ((t = now()) - t0 < 1.0) {
			work_unit();
			units++;
		}
		printf("rate %llu cpu %llu\n", (unsigned long long)(units / (t - t0)),
		       (unsigned long long)((runtime_ns() - r0) / (t - t0) / 1e6));
		fflush(stdout);
	}
}

static void bomb(void)
{
	for (;;) {
		pid_t pid = fork();

		if (pid < 0)
			usleep(1000);  /* refused: back off one tick */
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "worker"))
		worker(atoi(argv[2]));
	else if (argc == 2 && !strcmp(argv[1], "bomb"))
		bomb();
	else
		fprintf(stderr, "usage: compare worker SECS | compare bomb\n");
	return 1;
}
