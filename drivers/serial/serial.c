// SPDX-License-Identifier: MIT
/*
 * drivers/serial/serial.c - the COM1 16550 UART: console output, and input by
 * interrupt (each received byte goes to console_input()).
 */
#include "drivers/serial/serial.h"

#include "arch/x86_64/io.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/trap.h"
#include "kernel/base/initcall.h"
#include "kernel/printk/console.h"

#define COM1 0x3f8
#define REG_DATA 0      /* receive / transmit buffer (DLAB=0) */
#define REG_IER  1      /* interrupt enable */
#define REG_FCR  2      /* FIFO control */
#define REG_LCR  3      /* line control */
#define REG_MCR  4      /* modem control */
#define REG_LSR  5      /* line status */
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY  0x20

static int serial_present;

/* The console's view of the line: a terminal wants "\r\n". */
static void serial_console_putc(char c)
{
	if (c == '\n')
		serial_putc('\r');
	serial_putc(c);
}

static const struct console_output serial_console = {
	.name = "serial",
	.putc = serial_console_putc,
};

void serial_init(void)
{
	outb(COM1 + REG_IER, 0x00);
	outb(COM1 + REG_LCR, 0x80);     /* DLAB: set the divisor */
	outb(COM1 + REG_DATA, 1);       /* 115200 baud */
	outb(COM1 + REG_IER, 0);
	outb(COM1 + REG_LCR, 0x03);     /* 8 bits, no parity, 1 stop */
	/* FIFOs on and cleared, interrupt per byte */
	outb(COM1 + REG_FCR, 0x07);
	outb(COM1 + REG_MCR, 0x0b);     /* DTR, RTS, OUT2 (IRQ line enable) */
	/* A missing UART reads back 0xff. */
	serial_present = inb(COM1 + REG_LSR) != 0xff;
	if (serial_present)
		console_register_output(&serial_console);
}

void serial_putc(char c)
{
	if (!serial_present)
		return;
	for (int spin = 0; spin < 100000; spin++)
		if (inb(COM1 + REG_LSR) & LSR_THR_EMPTY)
			break;
	outb(COM1 + REG_DATA, (uint8_t)c);
}

static void serial_interrupt(struct trap_frame *frame)
{
	while (inb(COM1 + REG_LSR) & LSR_DATA_READY)
		console_input((char)inb(COM1 + REG_DATA));
}

void serial_irq_init(void)
{
	if (!serial_present)
		return;
	trap_register(VECTOR_SERIAL, serial_interrupt);
	ioapic_route_isa_irq(4, VECTOR_SERIAL);
	outb(COM1 + REG_IER, 0x01);     /* interrupt on received data */
	/* Bytes that arrived before the interrupt was on. */
	serial_interrupt(0);
}
INITCALL(device, serial_irq_init);
