// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/smp.c - bringing up the application processors (APs), and
 * running a function on every CPU.
 *
 * Start-up: the boot CPU copies boot/trampoline.S below 1 MiB, then for
 * each AP in the MADT sends INIT, SIPI, SIPI (the "universal start-up
 * algorithm" of the Intel MP specification) and waits for it to say it is
 * online. One AP at a time, because they share the trampoline.
 *
 * smp_call_function_all: the caller publishes (fn, arg), marks every other
 * online CPU pending, sends them an IPI, runs fn itself and waits until
 * each has run it. A CPU waiting for the call lock keeps serving requests,
 * so two CPUs calling at once cannot deadlock even with interrupts off.
 * smp_call_function_some is the same for the CPUs a predicate chooses,
 * each sent its own IPI; the others are not interrupted.
 */
#include "arch/x86_64/smp.h"

#include <string.h>

#include "arch/x86_64/acpi.h"
#include "arch/x86_64/asm/cpu.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/trap.h"
#include "kernel/base/platform.h"
#include "kernel/base/spinlock.h"

#define TRAMPOLINE_BASE 0x8000
#define AP_STACK_SIZE 16384

unsigned int nr_cpus = 1;

extern char trampoline_start[], trampoline_end[];
extern char trampoline_cr3[], trampoline_stack[], trampoline_cpu[];
extern char boot_pml4[];

/* Each AP's first stack, which becomes its idle task's stack. */
static uint8_t ap_stacks[NR_CPUS][AP_STACK_SIZE] __attribute__((aligned(16)));

static spinlock_t call_lock = SPINLOCK_INIT;
static void (*call_fn)(void *);
static void *call_arg;
static volatile int call_remaining;

/* What each AP runs once it is up (smp_boot's idle). */
static void (*ap_idle)(void);

/* Called on each AP by ap_start64 (boot/trampoline.S). */
_Noreturn void ap_main(unsigned int id)
{
	cpu_init_this(id);
	trap_load();
	fpu_enable();
	lapic_init_this();
	lapic_timer_start();
	__atomic_store_n(&cpus[id].online, true, __ATOMIC_RELEASE);
	ap_idle();
	for (;;)  /* the idle loop does not return; if it did, halt */
		__asm__ volatile("cli\n\thlt");
}

static void call_service(void)
{
	struct cpu *cpu;
	unsigned long flags;

	if (!__atomic_load_n(&this_cpu()->call_pending, __ATOMIC_ACQUIRE))
		return;
	/* A function runs with interrupts off, polled or not (a CPU parked
	 * for text patching must run no handler meanwhile), and the call is
	 * taken in one step: the IPI may arrive while a waiter polls. */
	flags = local_irq_save();
	cpu = this_cpu();
	if (__atomic_exchange_n(&cpu->call_pending, false, __ATOMIC_ACQUIRE)) {
		call_fn(call_arg);
		__atomic_fetch_sub(&call_remaining, 1, __ATOMIC_RELEASE);
	}
	local_irq_restore(flags);
}

void smp_call_function_poll(void)
{
	call_service();
}

static void call_function_interrupt(struct trap_frame *frame)
{
	call_service();
}

static void reschedule_interrupt(struct trap_frame *frame)
{
	this_cpu()->need_resched = 1;
}

static void nmi_stop(struct trap_frame *frame)
{
	struct cpu *cpu = this_cpu();

	/* Another CPU panicked: say where this one was (the panicking CPU
	 * prints it: smp_report_stopped_cpus), and stop here, quietly. */
	cpu->stopped_rip = frame->rip;
	cpu->stopped_rbp = frame->rbp;
	__atomic_store_n(&cpu->stopped, true, __ATOMIC_RELEASE);
	for (;;)
		__asm__ volatile("cli\n\thlt");
}

void smp_report_stopped_cpus(void)
{
	unsigned int self = smp_processor_id();

	for (unsigned int i = 0; i < nr_cpus; i++) {
		struct cpu *cpu = &cpus[i];

		if (i == self || !cpu->online)
			continue;
		/* The NMI went out when the panic began; give it 100 ms. */
		for (int ms = 0; ms < 100 && !__atomic_load_n(&cpu->stopped,
							      __ATOMIC_ACQUIRE);
		     ms++)
			udelay(1000);
		if (!cpu->stopped) {
			printk("cpu %u: did not stop (no NMI taken)\n", i);
			continue;
		}
		printk("cpu %u was stopped at:\n", i);
		print_backtrace(cpu->stopped_rip, cpu->stopped_rbp);
	}
}

/* wait_for_answers - until every other CPU has run fn. In the debug
 * build, a CPU that has not answered in 20 s is a deadlock: name it. */
static void wait_for_answers(void (*fn)(void *))
{
#ifdef CONFIG_DEBUG_LOCKS
	struct lock_debug_wait wait = {0};
#endif

	while (__atomic_load_n(&call_remaining, __ATOMIC_ACQUIRE) > 0) {
		cpu_relax();
#ifdef CONFIG_DEBUG_LOCKS
		if (!lock_debug_waited_too_long(&wait))
			continue;
		lock_debug_off();
		for (unsigned int i = 0; i < nr_cpus; i++)
			if (cpus[i].online && cpus[i].call_pending)
				printk("smp_call_function_all: cpu %u has not "
				       "answered\n", i);
		panic("smp_call_function_all: CPU %u has waited %d s for the "
		      "other CPUs to run %p (rule: every CPU answers a "
		      "cross-CPU call soon; one spinning with interrupts off "
		      "does not: see where each CPU is below)",
		      smp_processor_id(), LOCK_DEBUG_STUCK_SECONDS, (void *)fn);
#endif
	}
}

/* call_cpus - run fn(arg) on the online CPUs want chooses (all of them
 * if want is NULL), this one included, and wait; how many ran it. */
static unsigned int call_cpus(bool (*want)(unsigned int cpu, void *arg),
			      void (*fn)(void *), void *arg)
{
	unsigned long flags = local_irq_save();
	unsigned int self = smp_processor_id();
	bool chosen[NR_CPUS] = {false}, here;
	int others = 0;

	/* Not spin_lock: a CPU waiting here with interrupts off must keep
	 * serving the caller that holds the lock, or both wait forever. */
	while (!arch_spin_trylock(&call_lock)) {
		call_service();
		cpu_relax();
	}
	preempt_disable();
	spin_debug_acquire(&call_lock);  /* as spin_lock does */
	call_fn = fn;
	call_arg = arg;
	for (unsigned int i = 0; i < nr_cpus; i++) {
		chosen[i] = cpus[i].online && (!want || want(i, arg));
		if (chosen[i] && i != self)
			others++;
	}
	here = chosen[self];
	call_remaining = others;
	for (unsigned int i = 0; i < nr_cpus; i++)
		if (i != self && chosen[i])
			__atomic_store_n(&cpus[i].call_pending, true,
					 __ATOMIC_RELEASE);
	if (others && !want)
		lapic_send_ipi_others(VECTOR_CALL_FUNC);
	else if (others)
		for (unsigned int i = 0; i < nr_cpus; i++)
			if (i != self && chosen[i])
				lapic_send_ipi(cpus[i].apic_id,
					       VECTOR_CALL_FUNC);
	if (here)
		fn(arg);
	wait_for_answers(fn);
	spin_unlock(&call_lock);
	local_irq_restore(flags);
	return (unsigned int)others + (here ? 1 : 0);
}

void smp_call_function_all(void (*fn)(void *), void *arg)
{
	spin_debug_cross_call(__builtin_return_address(0));
	call_cpus(NULL, fn, arg);
}

unsigned int smp_call_function_some(bool (*want)(unsigned int cpu,
						 void *arg),
				    void (*fn)(void *), void *arg)
{
	spin_debug_cross_call(__builtin_return_address(0));
	return call_cpus(want, fn, arg);
}

void smp_send_reschedule(unsigned int cpu)
{
	lapic_send_ipi(cpus[cpu].apic_id, VECTOR_RESCHEDULE);
}

void smp_boot(unsigned int max_cpus, void (*idle)(void))
{
	ap_idle = idle;
	uint32_t self = lapic_id();

	trap_register(VECTOR_CALL_FUNC, call_function_interrupt);
	trap_register(VECTOR_RESCHEDULE, reschedule_interrupt);
	trap_register(2, nmi_stop);
	cpus[0].apic_id = self;
	cpus[0].online = true;

	memcpy(phys_to_virt(TRAMPOLINE_BASE), trampoline_start,
	       trampoline_end - trampoline_start);
	uint8_t *tramp = phys_to_virt(TRAMPOLINE_BASE);
	uint64_t *cr3 = (uint64_t *)(tramp +
				     (trampoline_cr3 - trampoline_start));
	uint64_t *stack = (uint64_t *)(tramp +
				       (trampoline_stack - trampoline_start));
	uint64_t *cpu_arg = (uint64_t *)(tramp +
					 (trampoline_cpu - trampoline_start));
	*cr3 = (uint64_t)boot_pml4;  /* the boot tables: physical, identity */

	unsigned int next = 1;
	for (unsigned int i = 0; i < acpi_info.nr_cpus && next < max_cpus;
	     i++) {
		uint32_t apic = acpi_info.apic_ids[i];
		if (apic == self)
			continue;
		cpus[next].apic_id = apic;
		*stack = (uint64_t)&ap_stacks[next][AP_STACK_SIZE];
		*cpu_arg = next;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		lapic_start_ap(apic, TRAMPOLINE_BASE >> 12);
		/* Wait up to a second (software emulation is slow). */
		for (int ms = 0; ms < 1000 && !cpus[next].online; ms++)
			udelay(1000);
		if (!cpus[next].online) {
			printk("smp: cpu with APIC id %u did not start\n",
			       apic);
			continue;
		}
		next++;
		nr_cpus = next;
	}
}
