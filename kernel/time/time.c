// SPDX-License-Identifier: MIT
/*
 * kernel/time/time.c - the tick: every CPU's timer interrupts HZ times a
 * second; the boot CPU's count is the clock (jiffies). What else a tick
 * does is registered with TICK_HOOK by the code that needs it (the
 * scheduler, the USB driver's polling): this file calls none of them by
 * name.
 */
#include "kernel/time/time.h"

#include "arch/x86_64/asm/cpu.h"
#include "kernel/base/platform.h"

volatile uint64_t jiffies;

/* The scheduler's way to sleep, once it has registered one. */
static void (*sleep_until)(uint64_t end);

void timer_tick(void)
{
	struct cpu *cpu = this_cpu();
	if (cpu->id == 0)
		__atomic_fetch_add(&jiffies, 1, __ATOMIC_RELAXED);
	cpu->ticks++;
	section_table_for_each(const struct tick_hook, tick_hooks, h)
		h->fn();
}

uint64_t uptime_ms(void)
{
	return jiffies * 1000 / HZ;
}

void time_halt_until(uint64_t end)
{
	while (jiffies < end)
		__asm__ volatile("sti\n\thlt" ::: "memory");
}

void time_register_sleep(void (*fn)(uint64_t end))
{
	sleep_until = fn;
}

void msleep(unsigned int ms)
{
	/* One tick more: the current tick is already partly gone, and
	 * "at least ms" must hold even if the next one comes at once. */
	uint64_t end = jiffies + ((uint64_t)ms * HZ + 999) / 1000 + 1;

	if (sleep_until)
		sleep_until(end);
	else
		time_halt_until(end);
}
