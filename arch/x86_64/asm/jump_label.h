/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/asm/jump_label.h - the x86-64 half of static keys
 * (kernel/base/static_key.h): the patch site, and the calls that patch it.
 *
 * A site is
 *
 *   1:  0f 1f 44 00 00      nopl 0(%rax,%rax)    ; key off: fall through
 *       ... the likely path ...
 *   l_yes:                                       ; key on: jmp l_yes
 *
 * and an entry {1b, l_yes, key} in __jump_table, each as an offset from
 * the entry's own field (kernel/base/static_key_table.h), as Linux's
 * arch/x86/include/asm/jump_label.h does. The compiler keeps l_yes (the
 * unlikely block) out of the straight-line path.
 */
#ifndef ARCH_X86_64_JUMP_LABEL_H
#define ARCH_X86_64_JUMP_LABEL_H

#include <stdbool.h>
#include <sys/cdefs.h>  /* __always_inline, as kernel/base/platform.h has it */

struct static_key;
struct jump_entry;

static __always_inline bool
arch_static_branch(struct static_key *key)
{
	__asm__ goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
		     ".pushsection __jump_table, \"aw\"\n\t"
		     ".balign 8\n\t"
		     ".long 1b - ., %l[l_yes] - .\n\t"
		     ".quad %c0 - .\n\t"
		     ".popsection"
		     : : "i"(key) : : l_yes);
	return false;
l_yes:
	return true;
}

/*
 * arch_static_branch_any2/3/4 - one site shared by two to four keys: the
 * same NOP, and one table entry per key, all with the same code and
 * target (kernel/base/static_key.h, static_branch_unlikely_any).
 */
#define __JUMP_ENTRY(n) \
	".balign 8\n\t.long 1b - ., %l[l_yes] - .\n\t.quad %c" #n " - .\n\t"
#define __JUMP_SITE_BEGIN \
	"1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t" \
	".pushsection __jump_table, \"aw\"\n\t"

static __always_inline bool
arch_static_branch_any2(struct static_key *a, struct static_key *b)
{
	__asm__ goto(__JUMP_SITE_BEGIN __JUMP_ENTRY(0) __JUMP_ENTRY(1)
		     ".popsection"
		     : : "i"(a), "i"(b) : : l_yes);
	return false;
l_yes:
	return true;
}

static __always_inline bool
arch_static_branch_any3(struct static_key *a, struct static_key *b,
			struct static_key *c)
{
	__asm__ goto(__JUMP_SITE_BEGIN __JUMP_ENTRY(0) __JUMP_ENTRY(1)
		     __JUMP_ENTRY(2) ".popsection"
		     : : "i"(a), "i"(b), "i"(c) : : l_yes);
	return false;
l_yes:
	return true;
}

static __always_inline bool
arch_static_branch_any4(struct static_key *a, struct static_key *b,
			struct static_key *c, struct static_key *d)
{
	__asm__ goto(__JUMP_SITE_BEGIN __JUMP_ENTRY(0) __JUMP_ENTRY(1)
		     __JUMP_ENTRY(2) __JUMP_ENTRY(3) ".popsection"
		     : : "i"(a), "i"(b), "i"(c), "i"(d) : : l_yes);
	return false;
l_yes:
	return true;
}

/*
 * jump_label_init - at boot, after paging_init and before anything takes
 * a key: prepare the text-patching alias, claim #BP, and sort and assign
 * the kernel's table of sites (static_key_init_table).
 */
void jump_label_init(void);

/*
 * arch_jump_label_transform - rewrite the n sites at entries to their jmp
 * (enable) or the NOP, safely while other CPUs run them
 * (arch/x86_64/text_poke.c). Caller: kernel/static_key.c, holding the
 * static-key lock with interrupts off.
 */
void arch_jump_label_transform(struct jump_entry *entries, unsigned int n,
			       bool enable);

/* jump_label_parks_cpus - are the other CPUs parked while a site is
 * patched (under KVM, or text_poke=park), rather than left running? */
bool jump_label_parks_cpus(void);

/* jump_label_bp_hits - times a CPU trapped on a site being patched and
 * was sent on by the #BP handler (for tests and curiosity). */
extern unsigned long jump_label_bp_hits;
/* jump_label_bp_stale - times a CPU trapped on an int3 that a finished
 * patch had already removed (a stale fetch: see jump_label_bp_handler). */
extern unsigned long jump_label_bp_stale;

#endif
