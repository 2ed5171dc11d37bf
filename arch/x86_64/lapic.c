// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/lapic.c - the local APIC (xAPIC, memory-mapped).
 *
 * Each CPU has a local APIC at the same physical address (0xfee00000); it
 * delivers interrupts to that CPU, counts down its timer, and sends IPIs.
 * At boot the APIC timer and the TSC are measured against the PIT's fixed
 * 1.193182 MHz clock for 10 ms, so that the timer ticks at HZ and the TSC
 * can time short delays.
 */
#include "arch/x86_64/lapic.h"

#include "arch/x86_64/acpi.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/trap.h"
#include "kernel/base/platform.h"
#include "kernel/time/time.h"

#define LAPIC_ID        0x020
#define LAPIC_EOI       0x0b0
#define LAPIC_SVR       0x0f0
#define LAPIC_ICR_LOW   0x300
#define LAPIC_ICR_HIGH  0x310
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_LINT1 0x360
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CUR 0x390
#define LAPIC_TIMER_DIV 0x3e0

#define ICR_PENDING     (1u << 12)
#define ICR_ASSERT      (1u << 14)
#define ICR_INIT        (5u << 8)
#define ICR_STARTUP     (6u << 8)
#define ICR_NMI         (4u << 8)
#define ICR_ALL_BUT_SELF (3u << 18)

static volatile uint32_t *lapic;
static uint32_t timer_ticks_per_tick;  /* APIC timer counts per 1/HZ s */
uint64_t tsc_khz;

static uint32_t lapic_read(uint32_t reg)
{
	return lapic[reg / 4];
}

static void lapic_write(uint32_t reg, uint32_t v)
{
	lapic[reg / 4] = v;
	(void)lapic[LAPIC_ID / 4];  /* wait for the write to complete */
}

void lapic_init_this(void)
{
	if (!lapic) {
		paging_map_uncached(acpi_info.lapic_phys, 4096);
		lapic = phys_to_virt(acpi_info.lapic_phys);
	}
	/* enable (bit 8) with the spurious vector */
	lapic_write(LAPIC_SVR, 0x100 | VECTOR_SPURIOUS);
	lapic_write(LAPIC_LVT_LINT0, 1u << 16);  /* masked */
	lapic_write(LAPIC_LVT_LINT1, 4u << 8);   /* NMI */
}

uint32_t lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

static void icr_wait(void)
{
	while (lapic_read(LAPIC_ICR_LOW) & ICR_PENDING)
		cpu_relax();
}

void lapic_send_ipi(uint32_t apic_id, uint8_t vector)
{
	unsigned long flags = local_irq_save();
	icr_wait();
	lapic_write(LAPIC_ICR_HIGH, apic_id << 24);
	lapic_write(LAPIC_ICR_LOW, vector | ICR_ASSERT);
	local_irq_restore(flags);
}

void lapic_send_ipi_others(uint8_t vector)
{
	unsigned long flags = local_irq_save();
	icr_wait();
	lapic_write(LAPIC_ICR_LOW, vector | ICR_ASSERT | ICR_ALL_BUT_SELF);
	local_irq_restore(flags);
}

void lapic_stop_other_cpus(void)
{
	if (!lapic || nr_cpus <= 1)
		return;
	icr_wait();
	lapic_write(LAPIC_ICR_LOW, ICR_NMI | ICR_ASSERT | ICR_ALL_BUT_SELF);
}

/* pit_start/pit_done - PIT channel 2 counting down 'us' (mode 0). */
static void pit_start(uint32_t us)
{
	uint32_t count = (uint32_t)(1193182ull * us / 1000000);
	uint8_t gate = inb(0x61);
	outb(0x61, (gate & ~0x02) | 0x01);  /* speaker off, gate on */
	outb(0x43, 0xb0);                   /* channel 2, lo/hi, mode 0 */
	outb(0x42, count & 0xff);
	outb(0x42, (count >> 8) & 0xff);
	gate = inb(0x61) & ~0x01;  /* restart the count: gate low, high */
	outb(0x61, gate);
	outb(0x61, gate | 0x01);
}

static int pit_done(void)
{
	return inb(0x61) & 0x20;
}

void udelay(uint64_t us)
{
	if (tsc_khz) {
		uint64_t end = rdtsc() + us * tsc_khz / 1000;
		while (rdtsc() < end)
			cpu_relax();
		return;
	}
	while (us > 0) {
		uint64_t chunk = us > 50000 ? 50000 : us;
		pit_start(chunk);
		while (!pit_done())
			cpu_relax();
		us -= chunk;
	}
}

void lapic_calibrate(void)
{
	const uint32_t us = 10000;

	lapic_write(LAPIC_TIMER_DIV, 0x3);  /* divide by 16 */
	lapic_write(LAPIC_LVT_TIMER, 1u << 16);  /* masked, one-shot */
	pit_start(us);
	uint64_t tsc0 = rdtsc();
	lapic_write(LAPIC_TIMER_INIT, 0xffffffff);
	while (!pit_done())
		cpu_relax();
	uint32_t elapsed = 0xffffffff - lapic_read(LAPIC_TIMER_CUR);
	uint64_t tsc1 = rdtsc();
	lapic_write(LAPIC_TIMER_INIT, 0);

	timer_ticks_per_tick = (uint32_t)((uint64_t)elapsed * 1000000 / us /
					  HZ);
	if (timer_ticks_per_tick == 0)
		timer_ticks_per_tick = 1;
	tsc_khz = (tsc1 - tsc0) * 1000 / us;
}

/* The timer's interrupt is the tick (kernel/time/time.c); what else runs
 * on it is registered there, not named here. */
static void timer_interrupt(struct trap_frame *frame)
{
	timer_tick();
}

void lapic_timer_start(void)
{
	trap_register(VECTOR_TIMER, timer_interrupt);
	lapic_write(LAPIC_TIMER_DIV, 0x3);
	lapic_write(LAPIC_LVT_TIMER, VECTOR_TIMER | (1u << 17));  /* periodic */
	lapic_write(LAPIC_TIMER_INIT, timer_ticks_per_tick);
}

void lapic_start_ap(uint32_t apic_id, uint8_t vector)
{
	icr_wait();
	lapic_write(LAPIC_ICR_HIGH, apic_id << 24);
	lapic_write(LAPIC_ICR_LOW, ICR_INIT | ICR_ASSERT);
	icr_wait();
	udelay(10000);
	for (int i = 0; i < 2; i++) {
		lapic_write(LAPIC_ICR_HIGH, apic_id << 24);
		lapic_write(LAPIC_ICR_LOW, ICR_STARTUP | vector);
		udelay(200);
		icr_wait();
	}
}
