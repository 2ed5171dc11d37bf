/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/lapic.h - the local APIC of each CPU: its timer, end of
 * interrupt, and inter-processor interrupts (IPIs).
 */
#ifndef ARCH_X86_64_LAPIC_H
#define ARCH_X86_64_LAPIC_H

#include <stdint.h>

/* tsc_khz - TSC ticks per millisecond, measured at boot against the PIT. */
extern uint64_t tsc_khz;

/* lapic_init_this - enable this CPU's local APIC. */
void lapic_init_this(void);
/* lapic_calibrate - measure the APIC timer and the TSC (boot CPU). */
void lapic_calibrate(void);
/* lapic_timer_start - periodic interrupt at HZ on this CPU. */
void lapic_timer_start(void);
uint32_t lapic_id(void);
void lapic_eoi(void);
/* lapic_send_ipi - send vector to the CPU with this APIC id. */
void lapic_send_ipi(uint32_t apic_id, uint8_t vector);
/* lapic_send_ipi_others - send vector to every CPU but this one. */
void lapic_send_ipi_others(uint8_t vector);
/* lapic_start_ap - INIT, SIPI, SIPI: start the CPU at page vector << 12. */
void lapic_start_ap(uint32_t apic_id, uint8_t vector);
/* lapic_stop_other_cpus - NMI every other CPU; they halt (panic). */
void lapic_stop_other_cpus(void);

/* udelay - busy-wait us microseconds (TSC; PIT before calibration). */
void udelay(uint64_t us);

#endif
