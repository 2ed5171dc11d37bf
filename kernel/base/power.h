/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/power.h - ending the machine.
 */
#ifndef KERNEL_POWER_H
#define KERNEL_POWER_H

/* machine_poweroff - exit QEMU with status 1 (isa-debug-exit, value 0), or
 * ACPI S5 on hardware. */
_Noreturn void machine_poweroff(void);

/* machine_exit - exit QEMU with status 2*value+1 (isa-debug-exit). */
_Noreturn void machine_exit(int value);

/* machine_reboot - restart the machine: the ACPI reset register, else the
 * keyboard controller's reset line, else a triple fault. The shell's
 * reboot command calls it (kernel/shell/shell_builtins.c). */
_Noreturn void machine_reboot(void);

#endif
