// SPDX-License-Identifier: MIT
/*
 * tests/unit/host_platform.c - the platform interface for host programs
 * (unit tests and fuzzers): pthreads stand in for CPUs.
 */
#include <execinfo.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* cmocka's, weak: the fuzzers link no cmocka. */
void cmocka_set_test_filter(const char *pattern) __attribute__((weak));

/* TALLY_CASE=NAME runs only the case NAME of a unit test program (cmocka
 * patterns: * and ?), so that a grader or a student can run one case in
 * a process of its own. */
__attribute__((constructor)) static void host_case_filter(void)
{
	const char *name = getenv("TALLY_CASE");

	if (name && *name && cmocka_set_test_filter)
		cmocka_set_test_filter(name);
}

static unsigned char host_cpu_areas[NR_CPUS][CPU_AREA_SIZE]
	__attribute__((aligned(64)));

/* --- interrupts on and off ---------------------------------------------- */

/* The CPU whose interrupts this thread has off, + 1; 0: interrupts on. */
static __thread unsigned int host_irqs_off_cpu;
static bool host_irq_locks;
static pthread_mutex_t host_irq_lock[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = PTHREAD_MUTEX_INITIALIZER,
};

void host_irqs_as_locks(bool on) { host_irq_locks = on; }

static unsigned long irq_save_on(unsigned int cpu)
{
	if (host_irqs_off_cpu)
		return 0;  /* already off: a nested section */
	if (__atomic_load_n(&host_irq_locks, __ATOMIC_RELAXED))
		pthread_mutex_lock(&host_irq_lock[cpu]);
	host_irqs_off_cpu = cpu + 1;
	return HOST_IRQ_ON;
}

unsigned long local_irq_save(void) { return irq_save_on(host_cpu); }

void local_irq_restore(unsigned long flags)
{
	unsigned int cpu = host_irqs_off_cpu;

	if (!(flags & HOST_IRQ_ON) || !cpu)
		return;
	host_irqs_off_cpu = 0;
	if (__atomic_load_n(&host_irq_locks, __ATOMIC_RELAXED))
		pthread_mutex_unlock(&host_irq_lock[cpu - 1]);
}

bool irqs_disabled(void) { return host_irqs_off_cpu != 0; }

/* --- uses of this CPU's area with interrupts on -------------------------- */

static bool host_irq_checking;
static unsigned long host_unguarded;
static char host_unguarded_where[256];

/* GCC's and clang's AddressSanitizer name a code address; weak, for a
 * host program built without it. */
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out,
			      size_t out_size) __attribute__((weak));

void host_irq_checks(bool on)
{
	__atomic_store_n(&host_unguarded, 0, __ATOMIC_RELAXED);
	host_unguarded_where[0] = '\0';
	__atomic_store_n(&host_irq_checking, on, __ATOMIC_RELAXED);
}

unsigned long host_irq_unguarded(void)
{
	return __atomic_load_n(&host_unguarded, __ATOMIC_RELAXED);
}

const char *host_irq_unguarded_where(void) { return host_unguarded_where; }

/* note_unguarded - count a use of this CPU's area with interrupts on;
 * the first is named by the first function on the stack that is not
 * this one or a this_cpu_... accessor (inline or not). */
static void note_unguarded(void)
{
	void *pcs[6];
	char frames[400];
	const char *where = NULL;
	int n;

	if (__atomic_fetch_add(&host_unguarded, 1, __ATOMIC_RELAXED))
		return;
	n = backtrace(pcs, 6);
	for (int i = 0; i < n && !where && __sanitizer_symbolize_pc; i++) {
		/* One entry per function at that address, inlined ones
		 * first, each ended by a NUL; an empty one ends the list. */
		memset(frames, 0, sizeof(frames));
		__sanitizer_symbolize_pc((char *)pcs[i] - 1, "%f %S", frames,
					 sizeof(frames) - 1);
		for (char *f = frames; *f && !where; f += strlen(f) + 1)
			if (strncmp(f, "this_cpu_", 9) != 0 &&
			    strncmp(f, "note_unguarded", 14) != 0 &&
			    !strstr(f, "backtrace"))
				where = f;
	}
	/* A long symbol is cut to the buffer: it only names the caller. */
	snprintf(host_unguarded_where, sizeof(host_unguarded_where), "%.*s",
		 (int)sizeof(host_unguarded_where) - 1,
		 where ? where : "(no symbols)");
}

void *this_cpu_area(void)
{
	if (!host_irqs_off_cpu &&
	    __atomic_load_n(&host_irq_checking, __ATOMIC_RELAXED))
		note_unguarded();
	return host_cpu_areas[host_cpu];
}

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
	unsigned int saved = host_cpu, saved_off = host_irqs_off_cpu, ran = 0;

	/* With threads (the hook), every CPU runs it: a superset. */
	if (host_call_function_hook) {
		host_call_function_hook(fn, arg);
		return nr_cpus;
	}
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		unsigned long flags = 0;

		if (!want(cpu, arg))
			continue;
		host_cpu = cpu;
		if (saved_off != cpu + 1) {
			host_irqs_off_cpu = 0;
			flags = irq_save_on(cpu);
		}
		fn(arg);
		local_irq_restore(flags);
		host_irqs_off_cpu = saved_off;
		ran++;
	}
	host_cpu = saved;
	return ran;
}

/* Each CPU's part runs as its IPI would: with that CPU's interrupts off
 * (its lock taken, if they are locks), on this thread. */
void smp_call_function_all(void (*fn)(void *), void *arg)
{
	unsigned int saved = host_cpu, saved_off = host_irqs_off_cpu;

	if (host_call_function_hook) {
		host_call_function_hook(fn, arg);
		return;
	}
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		unsigned long flags = 0;

		host_cpu = cpu;
		if (saved_off != cpu + 1) {
			host_irqs_off_cpu = 0;
			flags = irq_save_on(cpu);
		}
		fn(arg);
		local_irq_restore(flags);
		host_irqs_off_cpu = saved_off;
	}
	host_cpu = saved;
}
