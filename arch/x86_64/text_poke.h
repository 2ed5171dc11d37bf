/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/text_poke.h - writing to kernel text, which is mapped
 * read-only everywhere (Linux: text_poke in arch/x86/kernel/alternative.c).
 */
#ifndef ARCH_X86_64_TEXT_POKE_H
#define ARCH_X86_64_TEXT_POKE_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/base/platform.h"

/*
 * The alias: two virtual pages, mapped only while text_poke writes (so that
 * a write may cross a page boundary), at the top of the kernel image's
 * gigabyte, far above the image itself.
 */
#define TEXT_POKE_VA (KERNEL_VMA + 0x3fe00000ull)
#define TEXT_POKE_PAGES 2

/* text_poke_init - create the page tables of the alias (at boot). */
void text_poke_init(void);

/*
 * text_poke - copy len bytes (at most 4096) from src to kernel text at
 * addr, through a temporary writable, non-executable alias of the text's
 * frames, unmapped again (and its TLB entries flushed on this CPU) before
 * it returns. Single bytes are written with one store. It does not make
 * other CPUs see the change: text_poke_sync() does.
 *
 * Caller: with interrupts off, holding the lock that serialises patching
 * (the static-key lock). Panics if addr is not kernel text.
 */
void text_poke(uintptr_t addr, const void *src, size_t len);

/*
 * text_poke_sync - make every CPU execute a serialising instruction (an IPI
 * to all, each runs cpuid) and drop any TLB entry of the alias; returns
 * when all have. Afterwards no CPU runs an instruction it fetched before
 * the last text_poke.
 */
void text_poke_sync(void);

/* paging_flush_poke - drop this CPU's TLB entry for alias page i. */
static inline void paging_flush_poke(int i)
{
	__asm__ volatile("invlpg (%0)" ::"r"(TEXT_POKE_VA + 4096ull * i)
			 : "memory");
}

#endif
