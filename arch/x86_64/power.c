// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/power.c - ending the machine.
 *
 * In QEMU with the isa-debug-exit device (the tests' standard invocation),
 * writing V to port 0xf4 ends QEMU at once with exit status 2V+1. Without
 * the device the write goes nowhere - on real hardware, and in QEMU
 * without it - and the machine goes on: then poweroff turns it off the
 * ACPI way (S5, arch/x86_64/acpi_power.c), and reboot restarts it through
 * the ACPI reset register, the keyboard controller, or a triple fault.
 */
#include "kernel/base/power.h"

#include "arch/x86_64/acpi_power.h"
#include "arch/x86_64/io.h"
#include "kernel/base/platform.h"

#define DEBUG_EXIT_PORT 0xf4

static _Noreturn void halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli\n\thlt");
}

_Noreturn void machine_exit(int value)
{
	outb(DEBUG_EXIT_PORT, (uint8_t)value);
	/* Not in QEMU, or without the device: stop here. */
	halt_forever();
}

_Noreturn void machine_poweroff(void)
{
	outb(DEBUG_EXIT_PORT, 0);       /* QEMU with isa-debug-exit ends here */
	acpi_poweroff();                /* returns only if it failed */
	printk("poweroff: halted; it is safe to switch the machine off\n");
	halt_forever();
}

/* Tried in order: ACPI's reset register, the 8042's reset line, and last
 * a triple fault (an empty IDT, then an exception). */
_Noreturn void machine_reboot(void)
{
	acpi_reboot();
	for (int i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
		;
	outb(0x64, 0xfe);               /* 8042: pulse the reset line */
	for (volatile int i = 0; i < 10000000; i++)
		;
	static const struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) no_idt = {0, 0};
	__asm__ volatile("lidt %0\n\tint3" ::"m"(no_idt));
	halt_forever();
}
