/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/smp.h - starting the other CPUs, and asking them to run a
 * function (smp_call_function_all, in kernel/base/platform.h).
 */
#ifndef ARCH_X86_64_SMP_H
#define ARCH_X86_64_SMP_H

/* smp_boot - start up to max_cpus CPUs that the MADT lists (this one
 * included); sets nr_cpus. Each new CPU ends in the loop idle, which its
 * caller gives (the scheduler's cpu_idle_loop). */
void smp_boot(unsigned int max_cpus, void (*idle)(void));

/* smp_send_reschedule - interrupt cpu so it reschedules. */
void smp_send_reschedule(unsigned int cpu);

/*
 * smp_call_function_poll - run the function another CPU asked this one to
 * run (smp_call_function_all), if there is one. For loops that wait with
 * interrupts off for something a CPU inside smp_call_function_all may
 * hold (the static-key lock): without it, neither would ever go on.
 */
void smp_call_function_poll(void);

/* smp_report_stopped_cpus - during a panic, after the panicking CPU's own
 * report: where the panic's NMI stopped each other CPU, as a backtrace
 * (a deadlock's report then shows every party to it). */
void smp_report_stopped_cpus(void);

#endif
