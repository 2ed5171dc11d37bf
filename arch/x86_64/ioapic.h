/*
 * arch/x86_64/ioapic.h - the IO-APIC: routes device interrupt lines (ISA
 * IRQs: the serial port, the keyboard) to a CPU's local APIC.
 */
#ifndef ARCH_X86_64_IOAPIC_H
#define ARCH_X86_64_IOAPIC_H

#include <stdint.h>

/* ioapic_init - mask every line; also masks the old 8259 PICs. */
void ioapic_init(void);
/* ioapic_route_isa_irq - deliver ISA irq as vector to the boot CPU,
 * honouring the MADT's interrupt source overrides. */
void ioapic_route_isa_irq(unsigned int irq, uint8_t vector);

#endif
