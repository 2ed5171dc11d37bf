// SPDX-License-Identifier: MIT
/*
 * tests/unit/host_platform.c - the platform interface for host programs
 * (unit tests and fuzzers): pthreads stand in for CPUs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/base/platform.h"

unsigned int nr_cpus = 1;
uintptr_t direct_map_offset;
__thread unsigned int host_cpu;
__thread bool host_in_interrupt;
__thread struct task *host_current;
void (*host_panic_hook)(const char *message);
void (*host_call_function_hook)(void (*fn)(void *), void *arg);
void (*host_printk_hook)(const char *text, size_t len);
char host_last_panic[256];

void host_set_cpu(unsigned int cpu) { host_cpu = cpu; }

static unsigned char host_cpu_areas[NR_CPUS][CPU_AREA_SIZE]
	__attribute__((aligned(64)));

void *this_cpu_area(void) { return host_cpu_areas[host_cpu]; }
void *cpu_area(unsigned int cpu) { return host_cpu_areas[cpu]; }
void host_set_current(struct task *task) { host_current = task; }

_Noreturn void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(host_last_panic, sizeof(host_last_panic), fmt, ap);
	va_end(ap);
	if (host_panic_hook)
		host_panic_hook(host_last_panic);
	fprintf(stderr, "panic: %s\n", host_last_panic);
	abort();
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;
	if (host_printk_hook) {
		char small[256], *text = small;

		va_start(ap, fmt);
		n = vsnprintf(small, sizeof(small), fmt, ap);
		va_end(ap);
		if (n >= (int)sizeof(small)) {
			text = malloc(n + 1);
			if (!text)
				abort();
			va_start(ap, fmt);
			vsnprintf(text, n + 1, fmt, ap);
			va_end(ap);
		}
		if (n > 0)
			host_printk_hook(text, n);
		if (text != small)
			free(text);
		return n;
	}
	if (getenv("HOST_QUIET"))
		return 0;
	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

/* The host's smp_call_function_all runs every CPU's part at once, so no
 * call is ever waiting for this thread. */
void smp_call_function_poll(void)
{
}

unsigned int smp_call_function_some(bool (*want)(unsigned int cpu,
						 void *arg),
				    void (*fn)(void *), void *arg)
{
	unsigned int saved = host_cpu, ran = 0;

	/* With threads (the hook), every CPU runs it: a superset. */
	if (host_call_function_hook) {
		host_call_function_hook(fn, arg);
		return nr_cpus;
	}
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		if (!want(cpu, arg))
			continue;
		host_cpu = cpu;
		fn(arg);
		ran++;
	}
	host_cpu = saved;
	return ran;
}

void smp_call_function_all(void (*fn)(void *), void *arg)
{
	unsigned int saved = host_cpu;
	if (host_call_function_hook) {
		host_call_function_hook(fn, arg);
		return;
	}
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		host_cpu = cpu;
		fn(arg);
	}
	host_cpu = saved;
}
