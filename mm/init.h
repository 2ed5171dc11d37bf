/* SPDX-License-Identifier: MIT */
/*
 * mm/init.h - handing physical memory to the page allocator at boot.
 */
#ifndef MM_INIT_H
#define MM_INIT_H

#include <stdint.h>

/* A range of physical addresses [start, end). */
struct phys_range {
	uint64_t start, end;
};

/*
 * mm_init - build mem_map[] and give every usable frame to the buddy
 * allocator.
 * @ram:         usable RAM from the firmware's memory map
 * @reserved:    ranges inside RAM that must never be handed out (the first
 *               MiB, the kernel image, multiboot data and modules)
 *
 * mem_map itself is carved out of the first RAM range large enough, and
 * reserved too. Frames outside @ram (holes, ACPI, MMIO) are PG_reserved.
 * Must be called once, on the boot CPU, before any allocation; the direct
 * map must already cover all of @ram. It also sets up the per-CPU lists and
 * the slab caches: alloc_pages() and kmalloc() work when it returns. (Host
 * tests may call it again: each call starts from fresh allocator state.)
 */
void mm_init(const struct phys_range *ram, int nr_ram,
	     const struct phys_range *reserved, int nr_reserved);

#endif
