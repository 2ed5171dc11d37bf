/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/ioapic.h - the IO-APIC: routes device interrupt lines (ISA
 * IRQs: the serial port, the keyboard) to a CPU's local APIC.
 */
#ifndef ARCH_X86_64_IOAPIC_H
#define ARCH_X86_64_IOAPIC_H

#include <stdint.h>

/*
 * pic_disable - remap the legacy 8259 PICs away from the exception vectors
 * and mask them. Done first thing at boot, while the boot loader's
 * "virtual wire" set-up still routes the PIC to the CPU: masking the PIC
 * then also withdraws any interrupt it had already raised (otherwise QEMU
 * keeps it latched and delivers a bogus vector at the first sti).
 */
void pic_disable(void);

/* ioapic_init - mask every line of the IO-APIC. */
void ioapic_init(void);
/* ioapic_route_isa_irq - deliver ISA irq as vector to the boot CPU,
 * honouring the MADT's interrupt source overrides. */
void ioapic_route_isa_irq(unsigned int irq, uint8_t vector);

#endif
