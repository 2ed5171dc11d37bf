/* SPDX-License-Identifier: MIT */
/*
 * drivers/serial/serial.h - the COM1 16550 UART.
 */
#ifndef ARCH_X86_64_SERIAL_H
#define ARCH_X86_64_SERIAL_H

/* serial_init - 115200 8N1, FIFOs on, receive interrupts on. */
void serial_init(void);
/* serial_putc - send one byte, waiting for room. */
void serial_putc(char c);
/* serial_irq_init - route IRQ 4 to the boot CPU (after the IO-APIC). */
void serial_irq_init(void);

#endif
