/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/acpi.h - what tally reads from the ACPI tables: the CPUs and
 * interrupt controllers (MADT), the power-management registers (FADT), and
 * the NUMA nodes (SRAT).
 */
#ifndef ARCH_X86_64_ACPI_H
#define ARCH_X86_64_ACPI_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/base/platform.h"

struct acpi_irq_override {
	uint8_t isa_irq;
	uint32_t gsi;
	/* MPS INTI flags: polarity bits 0-1, trigger bits 2-3 */
	uint16_t flags;
};

struct acpi_info {
	unsigned int nr_cpus;            /* enabled local APICs */
	uint32_t apic_ids[NR_CPUS];
	uint64_t lapic_phys;
	uint64_t ioapic_phys;            /* the first IO-APIC; 0 if none */
	uint32_t ioapic_gsi_base;
	struct acpi_irq_override overrides[16];
	int nr_overrides;
	uint64_t fadt_phys;              /* 0 if none */
	uint64_t srat_phys;              /* 0 if none */
};

extern struct acpi_info acpi_info;

/* acpi_init - find the RSDP (multiboot2 copy, else the BIOS areas) and read
 * the MADT, and the SRAT if there is one: its memory ranges go to
 * numa_add_memblk (mm/numa.h), so acpi_init must come before mm_init.
 * Without ACPI, one CPU and the default addresses. */
void acpi_init(void);

/* acpi_numa_map_cpus - after smp_boot: tell mm/numa.h the node of each
 * CPU that came up, from the SRAT (node 0 for any it does not name). */
void acpi_numa_map_cpus(void);

/* acpi_find_table - physical address of the table with this signature, or 0. */
uint64_t acpi_find_table(const char *signature);

#endif
