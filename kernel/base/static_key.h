/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/static_key.h - branches that cost nothing until they are
 * switched on (Linux: include/linux/jump_label.h).
 *
 *   DEFINE_STATIC_KEY_FALSE(my_key);            // off; listed in /proc
 *
 *   if (static_branch_unlikely(&my_key)) {      // a 5-byte NOP while off
 *           ... the rare path ...
 *   }
 *
 *   static_key_slow_inc(&my_key);               // on: NOPs become jumps
 *   static_key_slow_dec(&my_key);               // off again at count 0
 *
 * A key is a reference count: the branch is taken while it is above zero.
 * In the kernel, static_branch_unlikely() is an `asm goto` that leaves the
 * NOP at the call site and records the site in the __jump_table section
 * (arch/x86_64/asm/jump_label.h, kernel/base/static_key_table.h); the
 * count's 0->1 and 1->0 transitions rewrite every site of the key, while
 * other CPUs run (arch/x86_64/text_poke.c). In host programs (TALLY_HOST)
 * the branch is a plain read of the count.
 *
 * /proc/static_keys lists every key defined with DEFINE_STATIC_KEY_FALSE,
 * its count and its sites (kernel/static_key_proc.c).
 */
#ifndef KERNEL_STATIC_KEY_H
#define KERNEL_STATIC_KEY_H

#include "kernel/base/platform.h"
#include "kernel/base/section_table.h"

struct jump_entry;

struct static_key {
	int enabled;  /* reference count: > 0 means the branch is taken */
	const char *name;
	/* Its patch sites, a range of the sorted __jump_table (set at boot by
	 * static_key_init_table; none in host programs). */
	struct jump_entry *entries;
	unsigned int nr_entries;
};

#define STATIC_KEY_INIT_FALSE(n) {.enabled = 0, .name = (n)}

/*
 * DEFINE_STATIC_KEY_FALSE - define a key, off, named after its identifier,
 * and register it (the static_keys section) so that /proc/static_keys lists
 * it even while it has count 0, or no sites at all.
 */
#define DEFINE_STATIC_KEY_FALSE(ident) \
	struct static_key ident = STATIC_KEY_INIT_FALSE(#ident); \
	static struct static_key *const static_key_entry_##ident \
		SECTION_TABLE_ENTRY(static_keys) = &ident

#if defined(TALLY_KERNEL) && !defined(__ASSEMBLY__)
#include "arch/x86_64/asm/jump_label.h"

static __always_inline bool
static_branch_unlikely(struct static_key *key)
{
	return arch_static_branch(key);
}
#define __static_branch_any(a, b, c, d, n, ...) \
	arch_static_branch_any##n
#else
static inline bool static_branch_unlikely(struct static_key *key)
{
	return unlikely(__atomic_load_n(&key->enabled, __ATOMIC_RELAXED) > 0);
}

static inline bool static_key_any_on(struct static_key *const *keys,
				     unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (__atomic_load_n(&keys[i]->enabled, __ATOMIC_RELAXED) > 0)
			return true;
	return false;
}
#define arch_static_branch_any2(a, b) \
	static_key_any_on((struct static_key *const[]){a, b}, 2)
#define arch_static_branch_any3(a, b, c) \
	static_key_any_on((struct static_key *const[]){a, b, c}, 3)
#define arch_static_branch_any4(a, b, c, d) \
	static_key_any_on((struct static_key *const[]){a, b, c, d}, 4)
#define __static_branch_any(a, b, c, d, n, ...) \
	arch_static_branch_any##n
#endif

/*
 * static_branch_unlikely_any(&k1, &k2, ...) - one site that belongs to two
 * to four keys: the NOP while all of them are off, the jump while any is
 * on. Each key lists the site among its own (/proc/static_keys), and a
 * key switched off leaves the site a jump while another key of it is
 * still on (jump_label_update). The tracepoints of the stock hit share
 * one site (mm/memcg/memcg_trace.h).
 */
#define static_branch_unlikely_any(...) \
	__static_branch_any(__VA_ARGS__, 4, 3, 2, 1, 0)(__VA_ARGS__)

/*
 * static_key_slow_inc - take a reference on key; the first one switches
 * every site of the key to its jump (and returns once all CPUs run it).
 * static_key_slow_dec - drop one; the last switches them back to NOPs.
 * Panics if the count would go below zero.
 *
 * Slow (the 0<->1 transitions wait for every CPU three times per change)
 * and serialised by one lock. Any context, interrupts on or off, but not
 * holding a spinlock that another CPU may wait for with interrupts off
 * (the transition waits for all CPUs: smp_call_function_all).
 */
void static_key_slow_inc(struct static_key *key);
void static_key_slow_dec(struct static_key *key);

/* static_key_count - the key's reference count now. */
static inline int static_key_count(const struct static_key *key)
{
	return __atomic_load_n(&key->enabled, __ATOMIC_ACQUIRE);
}

/*
 * static_key_init_table - at boot (arch's jump_label_init): sort the
 * table of sites [start, stop), give each key its range, and bring every
 * site into line with its key's count (keys taken before this ran have
 * had no patching yet). Until it has run, transitions only count. Prints
 * a warning for a key that has sites but was not registered.
 */
void static_key_init_table(struct jump_entry *start, struct jump_entry *stop);

/*
 * static_keys_show - the text of /proc/static_keys (docs/interface.md) into
 * buf, for every registered key, taken under the static-key lock so that no
 * site is seen half patched. Returns its length.
 */
size_t static_keys_show(char *buf, size_t size);

#ifdef TALLY_HOST
/*
 * host_jump_label_transform - host programs have no patch sites; a test
 * that builds a table of fake ones sets this to watch (or do) the
 * patching that static_key_slow_inc/dec ask for.
 */
extern void (*host_jump_label_transform)(struct jump_entry *entries,
					 unsigned int n, bool enable);
#endif

#endif
