// SPDX-License-Identifier: MIT
/*
 * kernel/time/time.c - the tick: every CPU's timer interrupts HZ times a second;
 * the boot CPU's count is the clock (jiffies).
 */
#include "kernel/time/time.h"

#include "arch/x86_64/cpu.h"
#include "kernel/platform.h"

volatile uint64_t jiffies;

/* Until kernel/sched/sched.c provides the scheduler, a tick does nothing more. */
__attribute__((weak)) void scheduler_tick(void)
{
}

void timer_tick(void)
{
	struct cpu *cpu = this_cpu();
	if (cpu->id == 0)
		__atomic_fetch_add(&jiffies, 1, __ATOMIC_RELAXED);
	cpu->ticks++;
	scheduler_tick();
}

uint64_t uptime_ms(void)
{
	return jiffies * 1000 / HZ;
}

/* Until the scheduler can put a task to sleep, msleep halts between ticks. */
__attribute__((weak)) void msleep(unsigned int ms)
{
	/* One tick more: the current tick is already partly gone, and
	 * "at least ms" must hold even if the next one comes at once. */
	uint64_t end = jiffies + ((uint64_t)ms * HZ + 999) / 1000 + 1;
	while (jiffies < end)
		__asm__ volatile("sti\n\thlt" ::: "memory");
}
