// SPDX-License-Identifier: MIT
/*
 * arch/x86_64/jump_label.c - rewriting static-key sites while other CPUs
 * run them (Linux: text_poke_bp_batch in arch/x86/kernel/alternative.c).
 *
 * A site is 5 bytes, the NOP 0f 1f 44 00 00 or jmp rel32 e9 xx xx xx xx.
 * No x86 store changes 5 bytes of code at once as another CPU sees it: a
 * CPU fetching the site while it is rewritten could decode half the old
 * instruction and half the new one. So the site is rewritten in three
 * steps, each followed by text_poke_sync (every CPU executes a serialising
 * instruction, so none still runs bytes it fetched before):
 *
 *   1. its first byte becomes int3 (cc). A CPU reaching the site now traps,
 *      or runs the old instruction (fetched before the sync: whole, as it
 *      was). After the sync, every CPU traps there.
 *   2. the 4 bytes after it become the new instruction's. Nobody runs them:
 *      everybody traps on the int3 first.
 *   3. the first byte becomes the new instruction's. A CPU runs the new
 *      instruction, or traps on the int3 it fetched before this store.
 *
 * A CPU that traps on a site being patched is sent where the new
 * instruction would take it (jump_label_bp_handler, from the #BP handler):
 * the jump's target, or the next instruction. So every CPU, at every
 * moment, executes the old instruction or the new one, never a mixture;
 * which one it sees during the change is a race it cannot detect, as with
 * any other store. All sites of a key are patched together, each step for
 * all of them at once: three syncs per change, however many sites.
 *
 * The #BP handler runs with interrupts off, and the syncs wait for every
 * CPU to take an interrupt, so once step 3's sync has returned no CPU is
 * still in the handler: only then is the batch withdrawn.
 *
 * Parking. Some hypervisors cannot deliver a guest kernel's int3: KVM's
 * PVM (software nested virtualisation, kvm_pvm) tries to emulate it and
 * stops the machine with "KVM internal error. Suberror: 1". Under a KVM
 * signature (CPUID 0x40000000 "KVMKVMKVM"), or with text_poke=park on the
 * command line, the other CPUs are therefore parked for the length of a
 * patch: one smp_call_function_all whose function, on the other CPUs, spins
 * with interrupts off and executes cpuid each time the patching CPU asks
 * (the same three syncs, polled instead of sent as IPIs). Nobody else runs
 * a site meanwhile, so nobody else can meet the int3; the int3 steps and
 * the handler stay, for the patching CPU itself and for NMIs.
 * text_poke=bp forces the IPI protocol (TCG and bare metal use it anyway).
 */
#include "arch/x86_64/asm/jump_label.h"

#include <string.h>

#include "arch/x86_64/asm/cpu.h"
#include "arch/x86_64/text_poke.h"
#include "arch/x86_64/trap.h"
#include "kernel/lib/cmdline.h"
#include "kernel/base/platform.h"
#include "kernel/base/static_key.h"
#include "kernel/base/static_key_table.h"

#define INT3 0xcc

/* The sites being patched, for the #BP handler; nr is 0 when none are. */
static struct {
	struct jump_entry *entries;
	unsigned int nr;
	bool enable;
} bp_batch;

unsigned long jump_label_bp_hits;
unsigned long jump_label_bp_stale;

/* find_site - the first table entry whose site is at addr, or NULL. */
static const struct jump_entry *find_site(uintptr_t addr)
{
	return jump_site_next(addr, NULL);
}

/* site_target - where the site's bytes now send a CPU: past the NOP, or
 * to the target of whichever of its entries the jmp names; 0 for anything
 * else (bytes read while a patch rewrites them). */
static uintptr_t site_target(const struct jump_entry *e,
			     const uint8_t now[JUMP_LABEL_INSN_SIZE])
{
	uint8_t want[JUMP_LABEL_INSN_SIZE];

	jump_insn_make(e, 0, want);
	if (!memcmp(now, want, JUMP_LABEL_INSN_SIZE))
		return jump_entry_code(e) + JUMP_LABEL_INSN_SIZE;
	for (const struct jump_entry *f = e; f;
	     f = jump_site_next(jump_entry_code(e), f)) {
		jump_insn_make(f, 1, want);
		if (!memcmp(now, want, JUMP_LABEL_INSN_SIZE))
			return jump_entry_target(f);
	}
	return 0;
}

/*
 * jump_label_bp_handler - trap_breakpoint_hook: if this int3 is at a
 * static-key site, resume where the site's instruction takes the CPU. The
 * trap pushed the address after the int3.
 *
 *   - The site is being patched (in bp_batch): go where the new
 *     instruction goes, the jump's target or the next instruction.
 *   - The site is not being patched and its int3 is already gone: this
 *     CPU fetched the int3 before the patch's last step and trapped after
 *     it (QEMU's TCG can even keep a translation made from the int3, so
 *     this happens again until the page is next written). Do what the
 *     site's instruction now does. Linux's kprobes does the same for an
 *     int3 removed under it.
 *   - Anything else is not ours: a real breakpoint, reported as a bug.
 */
static int jump_label_bp_handler(struct trap_frame *frame)
{
	uintptr_t site = frame->rip - 1;
	const struct jump_entry *e = find_site(site);

	if (!e)
		return 0;
	for (;;) {
		uint8_t now[JUMP_LABEL_INSN_SIZE];
		uintptr_t to;

		memcpy(now, (const void *)site, sizeof(now));
		if (now[0] == INT3) {
			/* Patching: the batch was published before the int3. */
			unsigned int nr = __atomic_load_n(&bp_batch.nr,
							  __ATOMIC_ACQUIRE);
			for (unsigned int i = 0; i < nr; i++) {
				const struct jump_entry *b =
					&bp_batch.entries[i];

				if (jump_entry_code(b) != site)
					continue;
				frame->rip = bp_batch.enable ?
					jump_entry_target(b) :
					site + JUMP_LABEL_INSN_SIZE;
				__atomic_add_fetch(&jump_label_bp_hits, 1,
						   __ATOMIC_RELAXED);
				return 1;
			}
			/* An int3 at a site, but nobody patches it. */
			return 0;
		}
		to = site_target(e, now);
		if (to) {
			frame->rip = to;
			break;
		}
		/* A patch began while we read the bytes: look again. */
		cpu_relax();
	}
	__atomic_add_fetch(&jump_label_bp_stale, 1, __ATOMIC_RELAXED);
	return 1;
}

/*
 * check_sites - each site must hold an instruction it may hold: going to a
 * jump, the NOP or (a two-target site) the jump of its other entry; going
 * to the NOP, one of its jumps. Anything else means the table or the code
 * is corrupt, and writing would make it worse.
 */
static void check_sites(struct jump_entry *entries, unsigned int n,
			bool enable)
{
	for (unsigned int i = 0; i < n; i++) {
		enum jump_site_state s = jump_site_state(&entries[i]);

		if (s == JUMP_SITE_OTHER || (!enable && s != JUMP_SITE_JMP))
			panic("jump_label: site %#lx of key %s holds %s, not "
			      "its jump%s (bytes corrupted?)",
			      (unsigned long)jump_entry_code(&entries[i]),
			      jump_entry_key(&entries[i])->name,
			      s == JUMP_SITE_NOP ? "the nop" :
						   "neither nop nor jmp",
			      enable ? " or the nop" : "");
	}
}

/* patch_sites - the three steps, each followed by a call of sync (above). */
static void patch_sites(struct jump_entry *entries, unsigned int n,
			bool enable, void (*sync)(void))
{
	static const uint8_t int3 = INT3;
	uint8_t insn[JUMP_LABEL_INSN_SIZE];

	bp_batch.entries = entries;
	bp_batch.enable = enable;
	__atomic_store_n(&bp_batch.nr, n, __ATOMIC_RELEASE);

	for (unsigned int i = 0; i < n; i++)                        /* 1 */
		text_poke(jump_entry_code(&entries[i]), &int3, 1);
	sync();
	for (unsigned int i = 0; i < n; i++) {                      /* 2 */
		jump_insn_make(&entries[i], enable, insn);
		text_poke(jump_entry_code(&entries[i]) + 1, insn + 1,
			  JUMP_LABEL_INSN_SIZE - 1);
	}
	sync();
	for (unsigned int i = 0; i < n; i++) {                      /* 3 */
		jump_insn_make(&entries[i], enable, insn);
		text_poke(jump_entry_code(&entries[i]), insn, 1);
	}
	sync();

	__atomic_store_n(&bp_batch.nr, 0, __ATOMIC_RELEASE);
}

/* --- parking the other CPUs ----------------------------------------------- */

static bool park_others;  /* set by jump_label_init */

static struct {
	struct jump_entry *entries;
	unsigned int nr;
	bool enable;
	unsigned int patcher;   /* the CPU that patches */
	int expected;           /* the others: how many will park */
	int parked;             /* how many have */
	unsigned int sync_gen;  /* bumped by the patcher for each sync */
	int synced;             /* others that have serialised for sync_gen */
	int released;           /* set when the patch is done */
} park;

static void serialise(void)
{
	uint32_t eax = 0, ebx, ecx = 0, edx;

	__asm__ volatile("cpuid"
			 : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx)
			 :
			 : "memory");
}

/* park_sync - a sync for parked CPUs: they execute cpuid when asked. */
static void park_sync(void)
{
	__atomic_store_n(&park.synced, 0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&park.sync_gen, 1, __ATOMIC_RELEASE);
	serialise();
	while (__atomic_load_n(&park.synced, __ATOMIC_ACQUIRE) < park.expected)
		cpu_relax();
}

/* park_and_patch - smp_call_function_all's function: the patcher patches
 * once every other CPU is parked; the others wait, serialising on demand. */
static void park_and_patch(void *arg)
{
	if (smp_processor_id() == park.patcher) {
		while (__atomic_load_n(&park.parked, __ATOMIC_ACQUIRE) <
		       park.expected)
			cpu_relax();
		patch_sites(park.entries, park.nr, park.enable, park_sync);
		__atomic_store_n(&park.released, 1, __ATOMIC_RELEASE);
		return;
	}
	unsigned int seen = __atomic_load_n(&park.sync_gen, __ATOMIC_ACQUIRE);
	__atomic_add_fetch(&park.parked, 1, __ATOMIC_ACQ_REL);
	while (!__atomic_load_n(&park.released, __ATOMIC_ACQUIRE)) {
		unsigned int gen = __atomic_load_n(&park.sync_gen,
						   __ATOMIC_ACQUIRE);
		if (gen != seen) {
			seen = gen;
			serialise();
			__atomic_add_fetch(&park.synced, 1, __ATOMIC_ACQ_REL);
		}
		cpu_relax();
	}
	serialise();
	for (int i = 0; i < TEXT_POKE_PAGES; i++)
		paging_flush_poke(i);
}

void arch_jump_label_transform(struct jump_entry *entries, unsigned int n,
			       bool enable)
{
	check_sites(entries, n, enable);
	if (!park_others) {
		patch_sites(entries, n, enable, text_poke_sync);
		return;
	}
	/* Caller holds the static-key lock with interrupts off: nobody else
	 * changes park, and this CPU stays this CPU. */
	int others = 0;
	unsigned int self = smp_processor_id();
	for (unsigned int i = 0; i < nr_cpus; i++)
		if (i != self && cpus[i].online)
			others++;
	park.entries = entries;
	park.nr = n;
	park.enable = enable;
	park.patcher = self;
	park.expected = others;
	park.parked = 0;
	park.released = 0;
	smp_call_function_all(park_and_patch, NULL);
}

bool jump_label_parks_cpus(void)
{
	return park_others;
}

/* under_kvm - does CPUID name KVM as the hypervisor? */
static bool under_kvm(void)
{
	uint32_t eax = 0x40000000, sig[3], ecx1, eax1 = 1, ebx1, edx1;

	__asm__ volatile("cpuid"
			 : "+a"(eax1), "=b"(ebx1), "=c"(ecx1), "=d"(edx1)
			 : "c"(0));
	if (!(ecx1 & (1u << 31)))
		return false;  /* no hypervisor */
	__asm__ volatile("cpuid"
			 : "+a"(eax), "=b"(sig[0]), "=c"(sig[1]), "=d"(sig[2]));
	return !memcmp(sig, "KVMKVMKVM\0\0\0", 12);
}

void jump_label_init(void)
{
	extern struct jump_entry __start___jump_table[], __stop___jump_table[];

	char mode[8];

	park_others = under_kvm();
	if (cmdline_value("text_poke", mode, sizeof(mode)))
		park_others = !strcmp(mode, "park");
	text_poke_init();
	trap_breakpoint_hook = jump_label_bp_handler;
	static_key_init_table(__start___jump_table, __stop___jump_table);
}
