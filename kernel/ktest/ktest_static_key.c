// SPDX-License-Identifier: MIT
/*
 * kernel/ktest/ktest_static_key.c - in-kernel tests of static keys: the
 * sites in the running kernel, counting, the protection of kernel text,
 * patching while every other CPU runs through the site being patched,
 * and what a key that is off costs the page allocator.
 *
 * The concurrent test (static_key_flip_smp) needs the other CPUs to loop
 * over the site with interrupts on (patching waits for each of them to
 * take an IPI). smp_call_function_all cannot start such a loop: it holds
 * its lock until every CPU has returned, and patching needs that lock. So
 * the test sends its own IPI (VECTOR_KTEST), whose handler acknowledges
 * it at once, enables interrupts and loops until told to stop.
 */
#include <stdio.h>
#include <string.h>

#include "arch/x86_64/io.h"
#include "arch/x86_64/asm/jump_label.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/text_poke.h"
#include "arch/x86_64/trap.h"
#include "kernel/ktest/ktest.h"
#include "kernel/base/platform.h"
#include "kernel/base/static_key.h"
#include "kernel/base/static_key_table.h"
#include "mm/buddy.h"
#include "mm/debug_free.h"
#include "mm/memcg/kmem_hooks.h"

/* Used only by these tests: count 0 except while one runs. */
DEFINE_STATIC_KEY_FALSE(ktest_static_key);

/* Two sites of the key: one here, one inlined wherever it is called. */
static __noinline bool ktest_branch_outlined(void)
{
	if (static_branch_unlikely(&ktest_static_key))
		return true;
	return false;
}

static inline bool ktest_branch_inlined(void)
{
	return static_branch_unlikely(&ktest_static_key);
}

/* sites_are - do all sites of key hold the instruction for on? */
static bool sites_are(const struct static_key *key, bool on)
{
	for (unsigned int i = 0; i < key->nr_entries; i++)
		if (jump_site_state(&key->entries[i]) !=
		    (on ? JUMP_SITE_JMP : JUMP_SITE_NOP))
			return false;
	return true;
}

/* --- the table of the running kernel ----------------------------------- */

static void ktest_static_key_sites(struct ktest *t)
{
	extern struct jump_entry __start___jump_table[], __stop___jump_table[];
	extern struct static_key *const __start_static_keys[];
	extern struct static_key *const __stop_static_keys[];
	extern char _text[], _etext[];
	unsigned int listed = 0;

	KTEST_EXPECT(t, ktest_static_key.nr_entries >= 2,
		     "the test key has its two sites");
	/* Sorted by key then address; each key's range is its own. */
	for (struct jump_entry *e = __start___jump_table;
	     e + 1 < __stop___jump_table; e++) {
		uintptr_t k0 = (uintptr_t)jump_entry_key(e);
		uintptr_t k1 = (uintptr_t)jump_entry_key(e + 1);

		if (k0 > k1 || (k0 == k1 && jump_entry_code(e) >=
						    jump_entry_code(e + 1))) {
			KTEST_EXPECT(t, false,
				     "__jump_table sorted by key, code");
			break;
		}
	}
	for (struct jump_entry *e = __start___jump_table;
	     e < __stop___jump_table; e++) {
		struct static_key *key = jump_entry_key(e);
		uintptr_t code = jump_entry_code(e),
			  target = jump_entry_target(e);

		if (code < (uintptr_t)_text || code + 5 > (uintptr_t)_etext ||
		    target < (uintptr_t)_text || target >= (uintptr_t)_etext) {
			KTEST_EXPECT(t, false,
				     "every site and target is in text");
			break;
		}
		if (e < key->entries || e >= key->entries + key->nr_entries) {
			KTEST_EXPECT(t, false,
				     "every entry in its key's range");
			break;
		}
	}
	/* A site is a jump iff some key of it is on: its own key, or
	 * another key of a shared site (static_branch_unlikely_any: the
	 * events of the stock hit share one site). */
	for (struct static_key *const *k = __start_static_keys;
	     k < __stop_static_keys; k++) {
		listed++;
		for (unsigned int i = 0; i < (*k)->nr_entries; i++) {
			const struct jump_entry *e = &(*k)->entries[i];
			bool on = false;

			for (struct jump_entry *f = __start___jump_table;
			     f < __stop___jump_table; f++)
				if (jump_entry_code(f) == jump_entry_code(e) &&
				    static_key_count(jump_entry_key(f)) > 0)
					on = true;
			if (jump_site_state(e) !=
			    (on ? JUMP_SITE_JMP : JUMP_SITE_NOP)) {
				printk("# key %s count=%d: site %#lx "
				       "disagrees\n", (*k)->name,
				       static_key_count(*k),
				       (unsigned long)jump_entry_code(e));
				KTEST_EXPECT(t, false, "a site is jmp iff one "
					     "of its keys is on");
			}
		}
	}
	KTEST_EXPECT(t, listed >= 3, "memcg, debug and test keys registered");
}
KTEST(static_key_sites);

/* --- counting: only 0 <-> 1 changes code --------------------------------- */

static void ktest_static_key_count(struct ktest *t)
{
	struct static_key *key = &ktest_static_key;

	KTEST_EXPECT(t, static_key_count(key) == 0, "the test key starts off");
	KTEST_EXPECT(t, !ktest_branch_outlined() && !ktest_branch_inlined(),
		     "off: branch not taken");
	static_key_slow_inc(key);
	KTEST_EXPECT(t, sites_are(key, true), "inc 0->1: sites are jmp");
	KTEST_EXPECT(t, ktest_branch_outlined() && ktest_branch_inlined(),
		     "on: branch taken");
	static_key_slow_inc(key);
	KTEST_EXPECT(t, static_key_count(key) == 2, "count 2");
	static_key_slow_dec(key);
	KTEST_EXPECT(t, sites_are(key, true) && ktest_branch_outlined(),
		     "dec 2->1: still jmp");
	static_key_slow_dec(key);
	KTEST_EXPECT(t, sites_are(key, false), "dec 1->0: sites are nop");
	KTEST_EXPECT(t, !ktest_branch_outlined() && !ktest_branch_inlined(),
		     "off again: branch not taken");
	KTEST_EXPECT(t, static_key_count(key) == 0, "count 0");
}
KTEST(static_key_count);

/* --- a site shared by two keys ------------------------------------------ */

/* Used only by static_key_shared_site: count 0 except while it runs. */
DEFINE_STATIC_KEY_FALSE(ktest_shared_a_key);
DEFINE_STATIC_KEY_FALSE(ktest_shared_b_key);

/* ktest_shared_branch - one site, listed by both keys. */
static __noinline bool ktest_shared_branch(void)
{
	if (static_branch_unlikely_any(&ktest_shared_a_key,
				       &ktest_shared_b_key))
		return true;
	return false;
}

/* shared_is - is the shared site the jump (on) or the NOP, as seen from
 * both keys' entries, and does a call take the branch accordingly? */
static bool shared_is(bool on)
{
	return ktest_shared_branch() == on &&
	       sites_are(&ktest_shared_a_key, on) &&
	       sites_are(&ktest_shared_b_key, on);
}

static void ktest_static_key_shared_site(struct ktest *t)
{
	struct static_key *a = &ktest_shared_a_key, *b = &ktest_shared_b_key;

	if (a->nr_entries != 1 || b->nr_entries != 1) {
		KTEST_EXPECT(t, false, "each key lists the one site");
		return;
	}
	KTEST_EXPECT(t, jump_entry_code(a->entries) ==
				jump_entry_code(b->entries),
		     "both keys list the same site");
	KTEST_EXPECT(t, shared_is(false), "both off: the NOP");
	static_key_slow_inc(a);
	KTEST_EXPECT(t, shared_is(true), "a on: the jump");
	static_key_slow_inc(b);
	KTEST_EXPECT(t, shared_is(true), "a and b on: the jump");
	static_key_slow_dec(a);
	KTEST_EXPECT(t, shared_is(true), "a off, b still on: still the jump");
	static_key_slow_dec(b);
	KTEST_EXPECT(t, shared_is(false), "both off again: the NOP");
	static_key_slow_inc(b);
	KTEST_EXPECT(t, shared_is(true), "b alone: the jump");
	static_key_slow_dec(b);
	KTEST_EXPECT(t, shared_is(false) && static_key_count(a) == 0 &&
				static_key_count(b) == 0,
		     "both off at the end");
}
KTEST(static_key_shared_site);

/* --- text has no writable mapping, the alias is gone after use ------------ */

static void ktest_static_key_text_protected(struct ktest *t)
{
	uintptr_t site = jump_entry_code(&ktest_static_key.entries[0]);
	uint64_t *pte;
	int level;

	pte = paging_lookup_pte(site, &level);
	KTEST_EXPECT(t, pte && level == 1 && !(*pte & PTE_WRITE) &&
				!(*pte & PTE_NX),
		     "text mapped by a 4 KiB page, read-only, executable");
	uintptr_t alias = (uintptr_t)phys_to_virt(site - KERNEL_VMA);
	pte = paging_lookup_pte(alias, &level);
	KTEST_EXPECT(t, pte && level == 1 && !(*pte & PTE_WRITE) &&
				(*pte & PTE_NX),
		     "direct map of text: 4 KiB page, read-only, NX");

	static_key_slow_inc(&ktest_static_key);
	static_key_slow_dec(&ktest_static_key);
	for (int i = 0; i < TEXT_POKE_PAGES; i++) {
		pte = paging_lookup_pte(TEXT_POKE_VA + 4096ull * i, &level);
		KTEST_EXPECT(t, !pte,
			     "text_poke alias unmapped after patching");
	}
}
KTEST(static_key_text_protected);

/* --- flipping while every other CPU runs the site ------------------------ */

/*
 * The flipper publishes the key's state in flip_seq: odd while it
 * changes the key (the count and the sites are in transition), even when
 * the change has completed on every CPU (the last text_poke_sync has
 * returned). When even, the key is on iff (flip_seq / 2) is odd.
 *
 * A looper reads flip_seq (s1), runs the site, reads flip_seq again (s2).
 * If s1 == s2 and even, the whole run of the site fell within one settled
 * period: the branch must match that state, and anything else is a
 * "wrong" branch. If s1 != s2 or odd, the site ran during a change and
 * either result is correct (a CPU may see the old code or the new during
 * a flip). A site that ran as a mixture of the two instructions would
 * not return either result: it would fault (the kernel panics) or jump
 * somewhere else, so "no fault and no wrong branch" is the test.
 */
#define FLIP_ROUNDS 2000          /* on-off cycles: 4000 transitions */
#define FLIP_START_TIMEOUT_US 2000000

struct flip_count {
	unsigned long on_taken, on_missed;    /* settled on */
	unsigned long off_quiet, off_taken;   /* settled off */
	unsigned long during;                 /* ran across a change */
} __cacheline_aligned;

static volatile unsigned int flip_seq;
static volatile int flip_stop;
static int flip_running;
static struct flip_count flip_counts[NR_CPUS];

static void flip_sample(struct flip_count *c, bool taken, unsigned int s1,
			unsigned int s2)
{
	if (s1 != s2 || (s1 & 1)) {
		c->during++;
		return;
	}
	if ((s1 / 2) & 1) {
		if (taken)
			c->on_taken++;
		else
			c->on_missed++;
	} else {
		if (taken)
			c->off_taken++;
		else
			c->off_quiet++;
	}
}

/* flip_looper - VECTOR_KTEST on each other CPU: run the sites until told
 * to stop, with interrupts on so that patching's IPIs get through. */
static void flip_looper(struct trap_frame *frame)
{
	struct flip_count *c = &flip_counts[smp_processor_id()];

	lapic_eoi();  /* now: let the patching CPU's IPIs in */
	__atomic_add_fetch(&flip_running, 1, __ATOMIC_ACQ_REL);
	local_irq_enable();
	while (!flip_stop) {
		unsigned int s1 = __atomic_load_n(&flip_seq, __ATOMIC_ACQUIRE);
		bool a = ktest_branch_inlined();
		bool b = ktest_branch_outlined();
		unsigned int s2 = __atomic_load_n(&flip_seq, __ATOMIC_ACQUIRE);

		flip_sample(c, a, s1, s2);
		flip_sample(c, b, s1, s2);
	}
	local_irq_disable();
	__atomic_sub_fetch(&flip_running, 1, __ATOMIC_ACQ_REL);
	/* trap_handler sends another EOI: with nothing in service, a no-op. */
}

static void ktest_static_key_flip_smp(struct ktest *t)
{
	struct static_key *key = &ktest_static_key;
	unsigned int self = smp_processor_id();
	unsigned int others = 0;
	unsigned long hits0 = jump_label_bp_hits;
	unsigned long stale0 = jump_label_bp_stale;
	uint64_t t0, t1;

	for (unsigned int i = 0; i < nr_cpus; i++)
		if (i != self && cpus[i].online)
			others++;
	memset(flip_counts, 0, sizeof(flip_counts));
	flip_seq = 0;
	flip_stop = 0;
	if (others) {
		trap_register(VECTOR_KTEST, flip_looper);
		lapic_send_ipi_others(VECTOR_KTEST);
		for (int us = 0; us < FLIP_START_TIMEOUT_US; us += 10) {
			if (__atomic_load_n(&flip_running, __ATOMIC_ACQUIRE) >=
			    (int)others)
				break;
			udelay(10);
		}
		if (flip_running < (int)others) {
			printk("# only %d of %u other CPUs started looping\n",
			       flip_running, others);
			KTEST_EXPECT(t, false,
				     "every other CPU loops on the site");
		}
	} else {
		printk("# one CPU: no concurrency to test, flipping alone\n");
	}

	t0 = rdtsc();
	for (int round = 0; round < FLIP_ROUNDS; round++) {
		struct flip_count *c = &flip_counts[self];

		__atomic_store_n(&flip_seq, flip_seq + 1, __ATOMIC_RELEASE);
		static_key_slow_inc(key);
		__atomic_store_n(&flip_seq, flip_seq + 1, __ATOMIC_RELEASE);
		flip_sample(c, ktest_branch_inlined(), flip_seq, flip_seq);
		__atomic_store_n(&flip_seq, flip_seq + 1, __ATOMIC_RELEASE);
		static_key_slow_dec(key);
		__atomic_store_n(&flip_seq, flip_seq + 1, __ATOMIC_RELEASE);
		flip_sample(c, ktest_branch_outlined(), flip_seq, flip_seq);
	}
	t1 = rdtsc();

	flip_stop = 1;
	for (int us = 0; us < FLIP_START_TIMEOUT_US &&
			 __atomic_load_n(&flip_running, __ATOMIC_ACQUIRE) > 0;
	     us += 10)
		udelay(10);
	KTEST_EXPECT(t, flip_running == 0, "every looper stopped");
	if (others)
		trap_register(VECTOR_KTEST, NULL);

	struct flip_count sum = {0};
	for (unsigned int i = 0; i < nr_cpus; i++) {
		struct flip_count *c = &flip_counts[i];

		sum.on_taken += c->on_taken;
		sum.on_missed += c->on_missed;
		sum.off_quiet += c->off_quiet;
		sum.off_taken += c->off_taken;
		sum.during += c->during;
		if (i != self && cpus[i].online &&
		    (c->on_taken == 0 || c->off_quiet == 0)) {
			printk("# cpu %u never ran the site in a settled "
			       "on and off state (on %lu, off %lu)\n",
			       i, c->on_taken, c->off_quiet);
			KTEST_EXPECT(t, false, "each looper saw both states");
		}
	}
	printk("# other CPUs %s while a site is patched\n",
	       jump_label_parks_cpus() ? "parked (KVM or text_poke=park)"
				       : "running (int3 protocol)");
	printk("# %d transitions in %lu Mcycles; branches: on+taken %lu, "
	       "off+not taken %lu, during a change %lu; wrong: on+not taken "
	       "%lu, off+taken %lu; int3 traps handled %lu (stale %lu)\n",
	       2 * FLIP_ROUNDS, (unsigned long)((t1 - t0) / 1000000),
	       sum.on_taken, sum.off_quiet, sum.during, sum.on_missed,
	       sum.off_taken, jump_label_bp_hits - hits0,
	       jump_label_bp_stale - stale0);
	KTEST_EXPECT(t, sum.on_missed == 0 && sum.off_taken == 0,
		     "no wrong branch in a settled state");
	KTEST_EXPECT(t, static_key_count(key) == 0 && sites_are(key, false),
		     "key off, sites nop at the end");
}
KTEST(static_key_flip_smp);

/* --- the debug key: checks on free find a bad free, and switch off ------- */

static void ktest_static_key_debug_check_on_free(struct ktest *t)
{
	int before = static_key_count(&debug_check_on_free_key);

	static_key_slow_inc(&debug_check_on_free_key);
	KTEST_EXPECT(t, debug_check_on_free(), "debug key on");
	for (int order = 0; order <= 3; order++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);

		KTEST_EXPECT(t, page != NULL, "allocation");
		free_pages(page, order);  /* checked: must pass */
	}
	static_key_slow_dec(&debug_check_on_free_key);
	KTEST_EXPECT(t, static_key_count(&debug_check_on_free_key) == before &&
				debug_check_on_free() == (before > 0),
		     "debug key back to its state");
}
KTEST(static_key_debug_check_on_free);

/*
 * --- cost: an order-0 alloc+free with the keys off ------------------------
 *
 * With memcg_kmem_enabled_key off, the kmem build should cost what the
 * KMEM=0 build (no hooks at all) costs: boot both and compare the lines.
 * Cycles mean something under KVM or on hardware; under TCG the TSC
 * follows host time, which still compares two builds on one host. The
 * benchmarks (`bench page_order0`, make bench) do this properly.
 */

#define COST_ROUNDS 101
#define COST_BATCH 256

static uint64_t order0_cycles(void)
{
	uint64_t samples[COST_ROUNDS] = {0};  /* each is set below */
	unsigned long flags = local_irq_save();

	for (int r = -10; r < COST_ROUNDS; r++) {  /* 10 warm-up rounds */
		uint64_t t0 = rdtsc_ordered();
		for (int i = 0; i < COST_BATCH; i++)
			free_pages(alloc_pages(GFP_KERNEL, 0), 0);
		uint64_t t1 = rdtsc_ordered();
		if (r >= 0)
			samples[r] = (t1 - t0) / COST_BATCH;
	}
	local_irq_restore(flags);
	/* The median: insertion sort of a hundred numbers. */
	for (int i = 1; i < COST_ROUNDS; i++)
		for (int j = i; j > 0 && samples[j - 1] > samples[j]; j--) {
			uint64_t s = samples[j];
			samples[j] = samples[j - 1];
			samples[j - 1] = s;
		}
	return samples[COST_ROUNDS / 2];
}

static void ktest_static_key_cost(struct ktest *t)
{
	bool keys_off = static_key_count(&memcg_kmem_enabled_key) == 0 &&
			static_key_count(&debug_check_on_free_key) == 0;
	uint64_t off = order0_cycles();

#ifdef CONFIG_MEMCG_KMEM
	const char *build = "kmem";
#else
	const char *build = "nokmem (KMEM=0)";
#endif
	printk("# order-0 alloc+free, %s build, keys %s: median %lu cycles\n",
	       build, keys_off ? "off" : "ON", (unsigned long)off);
#ifdef CONFIG_MEMCG_KMEM
	/* For contrast: the hooks called (a root task: nothing charged). */
	static_key_slow_inc(&memcg_kmem_enabled_key);
	uint64_t on = order0_cycles();
	static_key_slow_dec(&memcg_kmem_enabled_key);
	printk("# the same with memcg_kmem_enabled_key on (root task, not "
	       "charged): median %lu cycles\n", (unsigned long)on);
#endif
	KTEST_EXPECT(t, off > 0, "measured");
}
KTEST(static_key_cost);
