// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/paging.c - the kernel's page tables.
 *
 * Two mappings cover everything the kernel touches:
 *
 *   0xffff800000000000 + phys   the direct map: all physical memory, 2 MiB
 *                               pages, read-write, never executable.
 *                               phys_to_virt() is an addition.
 *   0xffffffff80000000 + phys   the kernel image (-mcmodel=kernel), 4 KiB
 *                               pages, so that text can be read-only and
 *                               executable and data writable and NX.
 *
 * The direct map also covers the kernel image's frames; the 2 MiB pages
 * holding its text are split into 4 KiB pages so that the text frames are
 * read-only there too. Kernel text then has no writable mapping at all:
 * static keys patch it through a temporary alias (arch/x86_64/text_poke.c).
 *
 * Page-table pages come from a pool in .bss, because the page allocator
 * is built later, on top of the direct map.
 */
#include "arch/x86_64/paging.h"

#include <string.h>

#include "arch/x86_64/io.h"
#include "kernel/base/platform.h"

#define PT_POOL_PAGES 320  /* direct map of up to ~256 GiB */

static uint64_t pt_pool[PT_POOL_PAGES][512] __attribute__((aligned(4096)));
static unsigned int pt_pool_used;
static uint64_t *kernel_pml4;
uint64_t kernel_cr3;
uintptr_t direct_map_offset = DIRECT_MAP_BASE;

extern char _boot_start_phys[], _text[], _etext[], _rodata[], _erodata[],
	_data[], _end[];

static uint64_t image_phys(const void *va)
{
	return (uint64_t)va - KERNEL_VMA;
}

static uint64_t *alloc_table(void)
{
	if (pt_pool_used == PT_POOL_PAGES)
		panic("paging: page-table pool exhausted (%d pages)",
		      PT_POOL_PAGES);
	uint64_t *table = pt_pool[pt_pool_used++];
	memset(table, 0, 4096);
	return table;
}

/* next_table - the table an entry points to, creating it if absent. */
static uint64_t *next_table(uint64_t *table, unsigned int index)
{
	if (!(table[index] & PTE_PRESENT)) {
		uint64_t *next = alloc_table();
		table[index] = image_phys(next) | PTE_PRESENT | PTE_WRITE;
	}
	return phys_to_virt(table[index] & PTE_ADDR_MASK);
}

static void map_2m(uint64_t va, uint64_t pa, uint64_t flags)
{
	uint64_t *pdpt = next_table(kernel_pml4, (va >> 39) & 511);
	uint64_t *pd = next_table(pdpt, (va >> 30) & 511);
	pd[(va >> 21) & 511] = pa | flags | PTE_HUGE | PTE_PRESENT;
}

static void map_4k(uint64_t va, uint64_t pa, uint64_t flags)
{
	uint64_t *pdpt = next_table(kernel_pml4, (va >> 39) & 511);
	uint64_t *pd = next_table(pdpt, (va >> 30) & 511);
	uint64_t *pt = next_table(pd, (va >> 21) & 511);
	pt[(va >> 12) & 511] = pa | flags | PTE_PRESENT;
}

/*
 * split_2m - replace the 2 MiB page mapping va by a table of 512 4 KiB
 * pages with the same frames and flags (nothing if it is not a 2 MiB page).
 */
static void split_2m(uint64_t va)
{
	uint64_t *pdpt = next_table(kernel_pml4, (va >> 39) & 511);
	uint64_t *pd = next_table(pdpt, (va >> 30) & 511);
	uint64_t *pde = &pd[(va >> 21) & 511];

	if (!(*pde & PTE_PRESENT) || !(*pde & PTE_HUGE))
		return;
	uint64_t base = *pde & PTE_ADDR_MASK & ~((2ull << 20) - 1);
	uint64_t flags = *pde & ~PTE_ADDR_MASK & ~PTE_HUGE;
	uint64_t *pt = alloc_table();
	for (int i = 0; i < 512; i++)
		pt[i] = (base + ((uint64_t)i << 12)) | flags;
	*pde = image_phys(pt) | PTE_PRESENT | PTE_WRITE;
}

/* protect_direct_map_text - the direct map's view of the kernel's text:
 * 4 KiB pages, read-only (and, as all of the direct map, NX). */
static void protect_direct_map_text(void)
{
	for (uint64_t va = (uint64_t)_text; va < (uint64_t)_etext; va += 4096) {
		uint64_t alias = DIRECT_MAP_BASE + image_phys((void *)va);
		int level;

		split_2m(alias);
		uint64_t *pte = paging_lookup_pte(alias, &level);
		if (!pte || level != 1)
			panic("paging: direct map of text at %#lx not split",
			      (unsigned long)alias);
		*pte &= ~PTE_WRITE;
	}
}

static void map_image_range(const char *start, const char *end, uint64_t flags)
{
	for (uint64_t va = (uint64_t)start; va < (uint64_t)end; va += 4096)
		map_4k(va, image_phys((void *)va), flags);
}

void paging_init(uint64_t top)
{
	const uint64_t gib = 1ull << 30;

	kernel_pml4 = alloc_table();
	if (top < 4 * gib)
		top = 4 * gib;
	top = (top + gib - 1) & ~(gib - 1);

	for (uint64_t pa = 0; pa < top; pa += 2ull << 20)
		map_2m(DIRECT_MAP_BASE + pa, pa,
		       PTE_WRITE | PTE_GLOBAL | PTE_NX);
	protect_direct_map_text();

	/* The boot section (multiboot headers, 32-bit entry, boot page tables
	 * used by APs on their way up), then the kernel proper. */
	map_image_range((char *)KERNEL_VMA + (uint64_t)_boot_start_phys, _text,
			PTE_WRITE | PTE_NX);
	map_image_range(_text, _etext, PTE_GLOBAL);
	map_image_range(_rodata, _erodata, PTE_GLOBAL | PTE_NX);
	map_image_range(_data, (char *)(((uint64_t)_end + 4095) & ~4095ull),
			PTE_WRITE | PTE_GLOBAL | PTE_NX);

	kernel_cr3 = image_phys(kernel_pml4);
	write_cr3(kernel_cr3);
}

uint64_t *paging_lookup_pte(uint64_t va, int *level)
{
	uint64_t *table = kernel_pml4;
	for (int shift = 39, lvl = 4; lvl >= 1; shift -= 9, lvl--) {
		uint64_t *entry = &table[(va >> shift) & 511];
		if (!(*entry & PTE_PRESENT))
			return NULL;
		if (lvl == 1 || (lvl == 2 && (*entry & PTE_HUGE))) {
			if (level)
				*level = lvl;
			return entry;
		}
		table = phys_to_virt(*entry & PTE_ADDR_MASK);
	}
	return NULL;
}

uint64_t *paging_reserve_pte(uint64_t va)
{
	uint64_t *pdpt = next_table(kernel_pml4, (va >> 39) & 511);
	uint64_t *pd = next_table(pdpt, (va >> 30) & 511);

	if (pd[(va >> 21) & 511] & PTE_HUGE)
		panic("paging_reserve_pte: %#lx is inside a 2 MiB page",
		      (unsigned long)va);
	uint64_t *pt = next_table(pd, (va >> 21) & 511);
	return &pt[(va >> 12) & 511];
}

void paging_map_uncached(uint64_t phys, uint64_t size)
{
	for (uint64_t pa = phys & ~((2ull << 20) - 1); pa < phys + size;
	     pa += 2ull << 20) {
		uint64_t va = DIRECT_MAP_BASE + pa;
		int level;
		uint64_t *pte = paging_lookup_pte(va, &level);
		if (!pte)
			map_2m(va, pa, PTE_WRITE | PTE_NX | PTE_PCD | PTE_PWT);
		else
			*pte |= PTE_PCD | PTE_PWT;
		paging_flush(va);
	}
}
