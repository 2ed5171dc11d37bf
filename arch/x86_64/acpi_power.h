/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/acpi_power.h - turning the machine off and restarting it
 * the ACPI way, as on real hardware: S5 through the FADT's PM1 control
 * registers, restart through the FADT's reset register.
 */
#ifndef ARCH_X86_64_ACPI_POWER_H
#define ARCH_X86_64_ACPI_POWER_H

#include <stdbool.h>
#include <stdint.h>

/*
 * acpi_poweroff - enter the soft-off state S5: SLP_TYP from the DSDT's
 * \_S5_ package and SLP_EN written to PM1a (and PM1b) control, after
 * switching the machine to ACPI mode if the firmware left it in legacy
 * mode. Returns only if that was impossible (no FADT, no _S5_) or did
 * not take effect, after printing why.
 */
void acpi_poweroff(void);

/*
 * acpi_reboot - write the FADT's reset value to its reset register.
 * Returns only if the FADT has none or the write did not restart.
 */
void acpi_reboot(void);

/*
 * acpi_s5_sleep_type - find the \_S5_ package in an AML table body (the
 * DSDT after its 36-byte header) by a byte scan, and store its first two
 * integers (SLP_TYPa, SLP_TYPb). Returns false if there is none.
 */
bool acpi_s5_sleep_type(const uint8_t *aml, uint32_t len, uint8_t *typ_a,
			uint8_t *typ_b);

#endif
