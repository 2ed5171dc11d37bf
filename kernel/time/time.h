/* SPDX-License-Identifier: MIT */
/*
 * kernel/time/time.h - time since boot, sleeping, and what runs on each
 * tick.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdint.h>

#include "kernel/base/section_table.h"

#define HZ 1000  /* timer ticks per second on every CPU */

/* jiffies - ticks of the boot CPU's timer since boot. */
extern volatile uint64_t jiffies;

/* uptime_ms - milliseconds since boot. */
uint64_t uptime_ms(void);

/* msleep - wait at least ms milliseconds: the task sleeps once the
 * scheduler has registered how (time_register_sleep); before that, or
 * on a CPU with no scheduler yet, the CPU halts between ticks. */
void msleep(unsigned int ms);

/* time_register_sleep - msleep() calls fn(end) from now on; fn returns
 * once jiffies >= end (or early, for a task being killed). */
void time_register_sleep(void (*fn)(uint64_t end));

/* time_halt_until - halt this CPU between ticks until jiffies >= end:
 * the way to wait where no task can sleep. */
void time_halt_until(uint64_t end);

/* timer_tick - called by every CPU's timer interrupt, HZ times a second:
 * counts the tick, then calls each TICK_HOOK function. */
void timer_tick(void);

/*
 * A tick hook: fn() runs on every CPU's tick, in interrupt context, in
 * link order. It must be short; a hook that is for one CPU only checks
 * smp_processor_id() itself.
 */
struct tick_hook {
	const char *name;
	void (*fn)(void);
};

/* TICK_HOOK - register fn to run on every tick. */
#define TICK_HOOK(fn) \
	static const struct tick_hook tick_hook_##fn \
		SECTION_TABLE_ENTRY(tick_hooks) = {#fn, fn}

#endif
