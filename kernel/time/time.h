/* SPDX-License-Identifier: MIT */
/*
 * kernel/time/time.h - time since boot, and sleeping.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdint.h>

#define HZ 1000  /* timer ticks per second on every CPU */

/* jiffies - ticks of the boot CPU's timer since boot. */
extern volatile uint64_t jiffies;

/* uptime_ms - milliseconds since boot. */
uint64_t uptime_ms(void);

/* msleep - wait at least ms milliseconds (the task sleeps; before the
 * scheduler runs, the CPU halts between ticks). */
void msleep(unsigned int ms);

/* timer_tick - called by every CPU's timer interrupt, HZ times a second. */
void timer_tick(void);

/* scheduler_tick - the scheduler's share of timer_tick (kernel/sched/sched.c). */
void scheduler_tick(void);

#endif
