/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/host_platform.h - kernel/base/platform.h for host programs. The
 * host build puts it in front of every file it compiles (-include in the
 * Makefile's HOST_CFLAGS): kernel/base/platform.h itself names only the
 * kernel's primitives.
 *
 * Each pthread is a "CPU": a test gives each thread a CPU number with
 * host_set_cpu(). Preemption does not exist on the host; interrupts are a
 * per-thread flag a test can set to exercise in_interrupt() paths.
 */
#ifndef TESTS_UNIT_HOST_PLATFORM_H
#define TESTS_UNIT_HOST_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <sched.h>
#include <stdint.h>

extern __thread unsigned int host_cpu;
extern __thread bool host_in_interrupt;
extern __thread struct task *host_current;

static inline unsigned int smp_processor_id(void) { return host_cpu; }
static inline unsigned long smp_processor_index(void) { return host_cpu; }
static inline void preempt_disable(void) {}
static inline void preempt_enable(void) {}
static inline unsigned long local_irq_save(void) { return 0; }
static inline void local_irq_restore(unsigned long flags) { (void)flags; }
static inline bool in_interrupt(void) { return host_in_interrupt; }
/* A spinning thread yields: with more threads than cores, a ticket lock
 * would otherwise wait for the scheduler to run exactly the next holder. */
static inline void cpu_relax(void) { sched_yield(); }
static inline struct task *get_current(void) { return host_current; }
/* Each "CPU"'s area is a line of an array (tests/unit/host_platform.c). */
void *this_cpu_area(void);
void *cpu_area(unsigned int cpu);

void host_set_cpu(unsigned int cpu);
void host_set_current(struct task *task);

/*
 * host_panic_hook: when set, panic() calls it (a test expecting a panic
 * longjmps out of it) instead of aborting.
 */
extern void (*host_panic_hook)(const char *message);
extern char host_last_panic[256];

/*
 * host_call_function_hook: smp_call_function_all() runs fn for each of
 * nr_cpus CPUs on the calling thread, with host_cpu set to that CPU, unless
 * a test installs its own hook.
 */
extern void (*host_call_function_hook)(void (*fn)(void *), void *arg);

/*
 * host_printk_hook: when set, printk() formats its message and hands it to
 * the hook instead of printing it (tests/unit/host_console.c sets it to
 * capture output).
 */
extern void (*host_printk_hook)(const char *text, size_t len);

#endif
