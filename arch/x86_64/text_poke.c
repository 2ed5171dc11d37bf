// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/text_poke.c - writing to kernel text through a temporary
 * alias (arch/x86_64/text_poke.h).
 *
 * Kernel text is read-only in both of its mappings (the image at
 * KERNEL_VMA and the direct map: arch/x86_64/paging.c), so a bug cannot
 * overwrite code, and data is never executable. To patch a static-key site,
 * text_poke maps the frame(s) under the site at a dedicated virtual address
 * (TEXT_POKE_VA), read-write and NX, writes there, and unmaps it. The
 * alias exists only on this CPU and only for the length of the write; the
 * next text_poke_sync also flushes it from every other CPU's TLB, in case
 * one cached it speculatively.
 *
 * Why a write through another address changes the code: x86 caches and
 * the instruction fetch track physical addresses, so a store to the frame
 * is seen by a fetch through any mapping of it - once the fetching CPU has
 * executed a serialising instruction (Intel SDM vol. 3, 8.1.3, "Handling
 * Self- and Cross-Modifying Code"): text_poke_sync.
 */
#include "arch/x86_64/text_poke.h"

#include "arch/x86_64/paging.h"
#include "kernel/base/platform.h"

static uint64_t *poke_pte[TEXT_POKE_PAGES];

extern char _text[], _etext[], _end[];

void text_poke_init(void)
{
	if ((uintptr_t)_end >= TEXT_POKE_VA)
		panic("text_poke_init: the kernel image (to %p) reaches the "
		      "text_poke alias at %#llx", (void *)_end, TEXT_POKE_VA);
	for (int i = 0; i < TEXT_POKE_PAGES; i++)
		poke_pte[i] = paging_reserve_pte(TEXT_POKE_VA + 4096ull * i);
}

/* text_frame - the frame under the kernel-text page at va. */
static uint64_t text_frame(uintptr_t va)
{
	int level;
	uint64_t *pte;

	if (va < (uintptr_t)_text || va >= (uintptr_t)_etext)
		panic("text_poke: %#lx is not kernel text (%p-%p)",
		      (unsigned long)va, (void *)_text, (void *)_etext);
	pte = paging_lookup_pte(va, &level);
	if (!pte || level != 1)
		panic("text_poke: text at %#lx is not mapped by a 4 KiB page",
		      (unsigned long)va);
	return *pte & PTE_ADDR_MASK;
}

void text_poke(uintptr_t addr, const void *src, size_t len)
{
	uintptr_t first = addr & ~0xfffull;
	uintptr_t last = (addr + len - 1) & ~0xfffull;
	unsigned int pages = last == first ? 1 : 2;
	volatile uint8_t *dst;
	const uint8_t *from = src;

	if (len == 0)
		return;
	if (len > 4096)
		panic("text_poke: %zu bytes at once", len);
	for (unsigned int i = 0; i < pages; i++) {
		*poke_pte[i] = text_frame(first + 4096ull * i) | PTE_PRESENT |
			       PTE_WRITE | PTE_NX;
		paging_flush(TEXT_POKE_VA + 4096ull * i);
	}
	dst = (volatile uint8_t *)(TEXT_POKE_VA + (addr & 0xfff));
	for (size_t i = 0; i < len; i++)
		dst[i] = from[i];
	for (unsigned int i = 0; i < pages; i++) {
		*poke_pte[i] = 0;
		paging_flush(TEXT_POKE_VA + 4096ull * i);
	}
}

static void sync_core(void *arg)
{
	uint32_t eax = 0, ebx, ecx = 0, edx;

	/* cpuid is serialising: instructions after it are fetched anew. */
	__asm__ volatile("cpuid"
			 : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx)
			 :
			 : "memory");
	for (int i = 0; i < TEXT_POKE_PAGES; i++)
		paging_flush(TEXT_POKE_VA + 4096ull * i);
}

void text_poke_sync(void)
{
	smp_call_function_all(sync_core, NULL);
}
