// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/ioapic.c - the IO-APIC, and silencing the legacy 8259 PICs.
 *
 * The 8259s are remapped away from the exception vectors and masked: all
 * device interrupts come through the IO-APIC, whose redirection table has
 * one 64-bit entry per input (global system interrupt, GSI).
 */
#include "arch/x86_64/ioapic.h"

#include "arch/x86_64/acpi.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/trap.h"
#include "kernel/base/platform.h"

static volatile uint32_t *ioapic;

static void ioapic_write(uint32_t reg, uint32_t v)
{
	ioapic[0] = reg;     /* IOREGSEL */
	ioapic[4] = v;       /* IOWIN at +0x10 */
}

static uint32_t ioapic_read(uint32_t reg)
{
	ioapic[0] = reg;
	return ioapic[4];
}

void pic_disable(void)
{
	/* ICW1-4: remap master to VECTOR_PIC_BASE, slave to +8, then mask. */
	outb(0x20, 0x11);
	outb(0xa0, 0x11);
	outb(0x21, VECTOR_PIC_BASE);
	outb(0xa1, VECTOR_PIC_BASE + 8);
	outb(0x21, 4);
	outb(0xa1, 2);
	outb(0x21, 1);
	outb(0xa1, 1);
	outb(0x21, 0xff);
	outb(0xa1, 0xff);
}

void ioapic_init(void)
{
	if (!acpi_info.ioapic_phys)
		return;
	paging_map_uncached(acpi_info.ioapic_phys, 4096);
	ioapic = phys_to_virt(acpi_info.ioapic_phys);
	unsigned int lines = ((ioapic_read(1) >> 16) & 0xff) + 1;
	for (unsigned int i = 0; i < lines; i++) {
		ioapic_write(0x10 + 2 * i, 1u << 16);  /* masked */
		ioapic_write(0x11 + 2 * i, 0);
	}
}

void ioapic_route_isa_irq(unsigned int irq, uint8_t vector)
{
	uint32_t gsi = irq;
	uint32_t low = vector;  /* fixed delivery, physical destination */

	if (!ioapic)
		return;
	for (int i = 0; i < acpi_info.nr_overrides; i++) {
		const struct acpi_irq_override *o = &acpi_info.overrides[i];
		if (o->isa_irq != irq)
			continue;
		gsi = o->gsi;
		if ((o->flags & 3) == 3)
			low |= 1u << 13;  /* active low */
		if (((o->flags >> 2) & 3) == 3)
			low |= 1u << 15;  /* level triggered */
	}
	unsigned int pin = gsi - acpi_info.ioapic_gsi_base;
	ioapic_write(0x11 + 2 * pin, cpus[0].apic_id << 24);
	ioapic_write(0x10 + 2 * pin, low);
}
