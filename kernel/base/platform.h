/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/platform.h - the small interface that mm/ and the pure logic in
 * kernel/ need from the machine they run on.
 *
 * The same source files are compiled twice: into the kernel (TALLY_KERNEL),
 * where arch/x86_64/asm/platform.h provides these primitives, and into host
 * programs (TALLY_HOST: unit tests, fuzzers, sanitizers). This header does
 * not name the host's stubs: the host build chooses them, by putting
 * -include tests/unit/host_platform.h in HOST_CFLAGS (Makefile), which
 * places the pthread versions in front of every host-compiled file. So
 * kernel/ and mm/ never include anything from tests/.
 *
 * What the interface offers (both builds):
 *
 *   unsigned int smp_processor_id(void);  this CPU's index, 0..nr_cpus-1
 *   unsigned long smp_processor_index(void);  the same, as an array
 *                                         index (no zero extension)
 *   extern unsigned int nr_cpus;          CPUs that are running
 *   NR_CPUS                               compile-time maximum (64)
 *   void preempt_disable(void);           no preemption until ..._enable()
 *   void preempt_enable(void);
 *   unsigned long local_irq_save(void);   disable interrupts, return old state
 *   void local_irq_restore(unsigned long);
 *   bool in_interrupt(void);              running in an interrupt handler?
 *   void cpu_relax(void);                 spin-wait hint (pause)
 *   void *this_cpu_area(void);            this CPU's CPU_AREA_SIZE bytes for
 *                                         the per-CPU data of a hot path
 *                                         (cache-line aligned; in the
 *                                         kernel, part of the struct cpu
 *                                         that %gs points at: one load)
 *   void *cpu_area(unsigned int cpu);     the same bytes of any CPU
 *   struct task *get_current(void);       the running task (never NULL once
 *                                         the scheduler runs; host: set by
 *                                         the test with host_set_current())
 *   _Noreturn void panic(const char *fmt, ...);
 *   int printk(const char *fmt, ...);     printf-style, to the console
 *   uintptr_t direct_map_offset;          virt = phys + direct_map_offset
 *   void smp_call_function_all(void (*fn)(void *), void *arg);
unsigned int smp_call_function_some(bool (*want)(unsigned int cpu,
						 void *arg),
				    void (*fn)(void *), void *arg);
 *                                         run fn(arg) on every CPU (this one
 *                                         included) and wait for all
 *   unsigned int smp_call_function_some(want, fn, arg);
 *                                         the same on the CPUs for which
 *                                         want(cpu, arg) is true (asked
 *                                         with interrupts off); only they
 *                                         are interrupted; how many ran fn
 *   void smp_call_function_poll(void);    run the function another CPU's
 *                                         smp_call_function_all asked this
 *                                         one to run, if any (for waits
 *                                         that must keep answering)
 *
 * Locks (kernel/base/spinlock.h) are built on these, identically in both
 * builds.
 */
#ifndef KERNEL_PLATFORM_H
#define KERNEL_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/cdefs.h>

#define NR_CPUS 64
#define CPU_AREA_SIZE 64  /* this_cpu_area() */
#define CACHELINE_SIZE 64
#define __cacheline_aligned __attribute__((aligned(CACHELINE_SIZE)))

/* __always_inline - inline at every call, whatever the compiler's own
 * judgement: for the few helpers that must become part of their caller
 * (a static key's test, whose patch site must sit in the caller's code).
 * __noinline - never inline: a rare path kept out of its caller. The C
 * libraries' <sys/cdefs.h> (newlib's, the host's) may define them first,
 * with the same meaning. */
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#ifndef __noinline
#define __noinline __attribute__((noinline))
#endif

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct task;

extern unsigned int nr_cpus;
extern uintptr_t direct_map_offset;

#ifndef TALLY_HOST
#include "arch/x86_64/asm/platform.h"
#endif

_Noreturn void panic(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void smp_call_function_all(void (*fn)(void *), void *arg);
unsigned int smp_call_function_some(bool (*want)(unsigned int cpu,
						 void *arg),
				    void (*fn)(void *), void *arg);
void smp_call_function_poll(void);

#define current get_current()

static inline void *phys_to_virt(uint64_t pa)
{
	return (void *)(uintptr_t)(pa + direct_map_offset);
}

static inline uint64_t virt_to_phys(const void *va)
{
	return (uint64_t)(uintptr_t)va - direct_map_offset;
}


#endif
