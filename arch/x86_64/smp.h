/*
 * arch/x86_64/smp.h - starting the other CPUs, and asking them to run a
 * function (smp_call_function_all, in kernel/platform.h).
 */
#ifndef ARCH_X86_64_SMP_H
#define ARCH_X86_64_SMP_H

/* smp_boot - start up to max_cpus CPUs that the MADT lists (this one
 * included); sets nr_cpus. */
void smp_boot(unsigned int max_cpus);

/* smp_send_reschedule - interrupt cpu so it reschedules. */
void smp_send_reschedule(unsigned int cpu);

/* cpu_idle_loop - what a CPU does when it has nothing else: the scheduler
 * provides it (kernel/sched.c); the default halts. Never returns. */
_Noreturn void cpu_idle_loop(void);

#endif
