/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/boot_info.h - what the boot loader told us, in one place.
 *
 * multiboot_parse() reads the multiboot1 or multiboot2 information and
 * copies what the kernel needs here, so that nothing later depends on the
 * loader's structures (whose memory is then free to reuse).
 */
#ifndef ARCH_X86_64_BOOT_INFO_H
#define ARCH_X86_64_BOOT_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/init.h"

#define BOOT_MAX_RANGES 64
#define BOOT_MAX_MODULES 8

struct boot_module {
	uint64_t start, end;    /* physical */
	char cmdline[64];
};

struct boot_framebuffer {
	uint64_t addr;          /* physical; 0 if none */
	uint32_t pitch, width, height;
	uint8_t bpp, type;      /* type 1: RGB, 2: EGA text */
};

struct boot_info {
	struct phys_range ram[BOOT_MAX_RANGES];
	int nr_ram;
	struct phys_range reserved[BOOT_MAX_RANGES];
	int nr_reserved;
	uint64_t ram_bytes;     /* sum of the usable RAM ranges */
	uint64_t ram_top;       /* end of the highest usable range */
	char cmdline[256];
	uint8_t rsdp[64];       /* copy of the ACPI RSDP (multiboot2) */
	bool have_rsdp;
	struct boot_module modules[BOOT_MAX_MODULES];
	int nr_modules;
	struct boot_framebuffer fb;
	bool multiboot2;
};

extern struct boot_info boot_info;

/* multiboot_parse - fill boot_info from the loader's magic and info
 * (physical address). Panics on an unknown magic. */
void multiboot_parse(uint32_t magic, uint64_t info_phys);

/* boot_reserve - add a range to boot_info.reserved. */
void boot_reserve(uint64_t start, uint64_t end);

#endif
