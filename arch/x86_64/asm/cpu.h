/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/asm/cpu.h - per-CPU data, reached through the GS segment base.
 *
 * Each CPU's GS base points at its own struct cpu, so "this CPU's data" is
 * one instruction away: gs:offset. The struct's first field points at the
 * struct itself, so this_cpu() turns GS into an ordinary pointer.
 */
#ifndef ARCH_X86_64_CPU_H
#define ARCH_X86_64_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef NR_CPUS
#define NR_CPUS 64
#endif
#ifndef CPU_AREA_SIZE
#define CPU_AREA_SIZE 64
#endif

struct task;

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct cpu {
	struct cpu *self;          /* gs:0, for this_cpu() */
	unsigned int id;           /* gs:8, smp_processor_id() */
	int preempt_count;         /* gs:12 */
	struct task *current_task; /* gs:16, get_current() (`current`) */
	unsigned int irq_depth;    /* gs:24: nesting of interrupt handlers */
	volatile int need_resched; /* gs:28: set by the timer or an IPI */
	uint32_t apic_id;
	volatile bool online;
	volatile bool call_pending; /* smp_call_function request for us */
	uint64_t ticks;            /* timer interrupts on this CPU */
	uint64_t gdt[7];  /* null, kcode, kdata, ucode32, udata, tss (2) */
	struct tss tss;
	void *scheduler;           /* per-CPU run queue (kernel/sched) */
	/* Where the panic's NMI stopped this CPU (smp_report_stopped_cpus). */
	uint64_t stopped_rip, stopped_rbp;
	volatile bool stopped;
	/* this_cpu_area(): the per-CPU data of a hot path elsewhere (the
	 * charge stock, mm/memcg/stock.h), kept here so that this CPU's is
	 * found from gs:0 with no index arithmetic. Its own cache line. */
	unsigned char area[CPU_AREA_SIZE] __attribute__((aligned(64)));
} __attribute__((aligned(64)));

extern struct cpu cpus[NR_CPUS];

#define CPU_FIELD_OFFSET(field) offsetof(struct cpu, field)

static inline struct cpu *this_cpu(void)
{
	struct cpu *self;
	__asm__ volatile("movq %%gs:0, %0" : "=r"(self));
	return self;
}

/* cpu_init_this - load this CPU's GDT, TSS and GS base (cpu: its index). */
void cpu_init_this(unsigned int cpu);
/* fpu_enable - let this CPU run SSE code (newlib's formatting uses it). */
void fpu_enable(void);

#endif
