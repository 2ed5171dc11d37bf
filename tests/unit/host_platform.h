/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/host_platform.h - kernel/base/platform.h for host programs. The
 * host build puts it in front of every file it compiles (-include in the
 * Makefile's HOST_CFLAGS): kernel/base/platform.h itself names only the
 * kernel's primitives.
 *
 * Each pthread is a "CPU": a test gives each thread a CPU number with
 * host_set_cpu(). Preemption does not exist on the host; interrupt
 * context is a per-thread flag a test can set to exercise in_interrupt()
 * paths.
 *
 * Interrupts on and off are a per-thread state that local_irq_save() and
 * local_irq_restore() keep, so that irqs_disabled() answers and the host
 * can see per-CPU data used with interrupts on (host_irq_checks below).
 * A test may also make them what they protect in the kernel: with
 * host_irqs_as_locks(true), interrupts off on CPU n is holding CPU n's
 * lock, and the part of smp_call_function_all() that runs for CPU n (the
 * IPI) takes that lock too, so it waits, as an IPI does, until CPU n has
 * interrupts on again.
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
/* The flags' "interrupts were on" bit: the x86 flags register's IF. */
#define HOST_IRQ_ON 0x200ul
unsigned long local_irq_save(void);
void local_irq_restore(unsigned long flags);
bool irqs_disabled(void);
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

/* host_irqs_as_locks - interrupts off is holding the CPU's lock (on), or
 * only a recorded state (off, the default). Switch it with no thread
 * inside a section. */
void host_irqs_as_locks(bool on);

/*
 * host_irq_checks - count each use of this CPU's area (this_cpu_area(),
 * where the per-CPU stocks live) while the calling thread has interrupts
 * on: in the kernel an interrupt there could drain or change the stock
 * under the code using it. host_irq_unguarded() is the count since the
 * checks were switched on; host_irq_unguarded_where() the first such use,
 * as "FUNCTION FILE:LINE" text. memcg_test.h turns them on for every
 * test of domains and fails a test that leaves a count.
 */
void host_irq_checks(bool on);
unsigned long host_irq_unguarded(void);
const char *host_irq_unguarded_where(void);

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
