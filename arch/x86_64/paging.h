/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/paging.h - the kernel's page tables.
 */
#ifndef ARCH_X86_64_PAGING_H
#define ARCH_X86_64_PAGING_H

#include <stdint.h>

#define PTE_PRESENT  (1ull << 0)
#define PTE_WRITE    (1ull << 1)
#define PTE_PWT      (1ull << 3)
#define PTE_PCD      (1ull << 4)
#define PTE_HUGE     (1ull << 7)
#define PTE_GLOBAL   (1ull << 8)
#define PTE_NX       (1ull << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ull

/* kernel_cr3 - physical address of the kernel's top-level table. */
extern uint64_t kernel_cr3;

/*
 * paging_init - build the kernel's page tables and switch to them: the
 * direct map of all physical memory below top (at least 4 GiB, to cover
 * ACPI tables and device registers) with 2 MiB pages, read-write and
 * non-executable; and the kernel image at its link address with 4 KiB
 * pages: text read-only and executable, rodata read-only, data NX. The
 * direct map's view of the text is read-only too (4 KiB pages there).
 */
void paging_init(uint64_t top);

/* paging_map_uncached - make the direct-map pages covering [phys,
 * phys+size) uncached (device registers). */
void paging_map_uncached(uint64_t phys, uint64_t size);

/*
 * paging_lookup_pte - the page-table entry mapping virtual address va in
 * the kernel's tables, and its level (1: 4 KiB, 2: 2 MiB); NULL if
 * unmapped.
 */
uint64_t *paging_lookup_pte(uint64_t va, int *level);

/*
 * paging_reserve_pte - the 4 KiB page-table entry for va in the kernel's
 * tables, creating the tables above it (the entry itself is left as it
 * is: not present if va was never mapped). For a mapping that comes and
 * goes, such as text_poke's alias; call at boot, while the page-table pool
 * is in use by this CPU only.
 */
uint64_t *paging_reserve_pte(uint64_t va);

/* paging_flush - flush the TLB entry for va on this CPU. */
static inline void paging_flush(uint64_t va)
{
	__asm__ volatile("invlpg (%0)" ::"r"(va) : "memory");
}

#endif
