/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/asm/platform.h - kernel/base/platform.h for the kernel build.
 */
#ifndef ARCH_X86_64_PLATFORM_H
#define ARCH_X86_64_PLATFORM_H

#include "arch/x86_64/asm/cpu.h"

#define DIRECT_MAP_BASE 0xffff800000000000ull
#define KERNEL_VMA      0xffffffff80000000ull

static inline unsigned int smp_processor_id(void)
{
	unsigned int id;
	__asm__ volatile("movl %%gs:8, %0" : "=r"(id));
	return id;
}

/* smp_processor_index - the same, for indexing per-CPU arrays: a 32-bit
 * load into a whole register clears its upper half, so gcc adds no zero
 * extension (it cannot know that of an unsigned int from asm). */
static inline unsigned long smp_processor_index(void)
{
	unsigned long id;
	__asm__ volatile("movl %%gs:8, %k0" : "=r"(id));
	return id;
}

/* preempt_schedule - called when preemption is re-enabled and the timer
 * asked for a reschedule meanwhile (kernel/sched/sched.c). */
void preempt_schedule(void);

static inline void preempt_disable(void)
{
	__asm__ volatile("incl %%gs:12" ::: "memory");
}

static inline void preempt_enable(void)
{
	int count;
	__asm__ volatile("decl %%gs:12\n\tmovl %%gs:12, %0"
			 : "=r"(count)::"memory");
	if (unlikely(count == 0)) {
		int resched;
		__asm__ volatile("movl %%gs:28, %0" : "=r"(resched));
		if (resched)
			preempt_schedule();
	}
}

static inline int preempt_count(void)
{
	int count;
	__asm__ volatile("movl %%gs:12, %0" : "=r"(count));
	return count;
}

static inline unsigned long local_irq_save(void)
{
	unsigned long flags;
	__asm__ volatile("pushfq\n\tpopq %0\n\tcli" : "=r"(flags)::"memory");
	return flags;
}

static inline void local_irq_restore(unsigned long flags)
{
	if (flags & 0x200)
		__asm__ volatile("sti" ::: "memory");
}

static inline void local_irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

static inline void local_irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline bool irqs_disabled(void)
{
	unsigned long flags;
	__asm__ volatile("pushfq\n\tpopq %0" : "=r"(flags));
	return !(flags & 0x200);
}

static inline bool in_interrupt(void)
{
	bool nested;
	/* The compare sets the flags the caller branches on: no load into
	 * a register first (the accounted allocation tests this on every
	 * page). */
	__asm__ volatile("cmpl $0, %%gs:24" : "=@ccne"(nested));
	return nested;
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static inline void *this_cpu_area(void)
{
	return this_cpu()->area;
}

static inline void *cpu_area(unsigned int cpu)
{
	return cpus[cpu].area;
}

static inline struct task *get_current(void)
{
	struct task *task;
	__asm__ volatile("movq %%gs:16, %0" : "=r"(task));
	return task;
}

#endif
