// SPDX-License-Identifier: MIT
/*
 * kernel/static_key.c - switching static keys on and off: the
 * arch-independent part (Linux: kernel/jump_label.c).
 *
 * A static key is a reference count: the branch behind it is taken while
 * the count is above zero (kernel/base/static_key.h). Only the transitions
 * 0 -> 1 and 1 -> 0 change code: they ask the architecture to rewrite every
 * site of the key (arch_jump_label_transform), to a jump or back to the
 * NOP. Other changes of the count only count. A site that several keys
 * share becomes what all its keys say: the jump while any is on, and at
 * a two-target site the jump of the key that wins (jump_label_update).
 *
 * One lock, static_key_lock, serialises the counts and the patching, as
 * jump_label_mutex does in Linux. tally has no sleeping mutex, and
 * static_key_slow_dec(&memcg_kmem_enabled_key) runs when a domain is
 * freed - when its last kernel page is freed, possibly with interrupts
 * off - so it is a spinlock taken with interrupts off. Patching waits for
 * every other CPU (smp_call_function_all); a CPU waiting for this lock
 * with interrupts off would never answer, so waiters serve those calls
 * while they spin (spin_lock_polled), as smp_call_function_all's own
 * waiters do.
 */
#include "kernel/base/static_key.h"

#include <string.h>

#include "kernel/base/spinlock.h"
#include "kernel/base/static_key_table.h"
#include "kernel/static_key_trace.h"

#ifdef TALLY_HOST
/* Host programs: no sites to patch. */
void (*host_jump_label_transform)(struct jump_entry *entries, unsigned int n,
				  bool enable);

static void arch_jump_label_transform(struct jump_entry *entries,
				      unsigned int n, bool enable)
{
	if (host_jump_label_transform)
		host_jump_label_transform(entries, n, enable);
}

#endif

/* Polled: its waiters serve cross-CPU calls (spin_lock_polled), so the
 * patching may wait for them while holding it. */
static spinlock_t static_key_lock = SPINLOCK_INIT_POLLED;
/* Set once the table is sorted and assigned: until then, no patching. */
static bool static_key_table_ready;

static unsigned long static_key_lock_take(void)
{
	unsigned long flags = local_irq_save();

	spin_lock_polled(&static_key_lock);
	return flags;
}

static void static_key_lock_give(unsigned long flags)
{
	spin_unlock_irqrestore(&static_key_lock, flags);
}

static const char *key_name(const struct static_key *key)
{
	return key->name ? key->name : "(unnamed key)";
}

/*
 * entry_on - is f's key on, once key has gone to enable? key's own count
 * is not stored yet when its sites are recomputed (slow_inc patches before
 * it stores the new count, slow_dec after), so key counts as enable.
 */
static bool entry_on(const struct jump_entry *f, const struct static_key *key,
		     bool enable)
{
	const struct static_key *k = jump_entry_key(f);

	return k == key ? enable : __atomic_load_n(&k->enabled,
						   __ATOMIC_RELAXED) > 0;
}

/*
 * site_on - should e's site jump once key has gone to enable? A site is
 * what its keys say: it jumps while any key of it is on (the entries of a
 * shared site all have one target). A scan of the whole table
 * (jump_site_next), on the slow path only.
 */
static bool site_on(const struct jump_entry *e, const struct static_key *key,
		    bool enable)
{
	uintptr_t code = jump_entry_code(e);

	for (struct jump_entry *f = jump_site_next(code, NULL); f;
	     f = jump_site_next(code, f))
		if (entry_on(f, key, enable))
			return true;
	return false;
}

/* site_holds - are the bytes at e's site insn already? */
static bool site_holds(const struct jump_entry *e,
		       const uint8_t insn[JUMP_LABEL_INSN_SIZE])
{
	const volatile uint8_t *code =
		(const volatile uint8_t *)jump_entry_code(e);

	for (int i = 0; i < JUMP_LABEL_INSN_SIZE; i++)
		if (code[i] != insn[i])
			return false;
	return true;
}

/*
 * jump_label_update - key has gone to enable (its count is about to be,
 * or has just been, stored): make each of its sites what all the keys of
 * that site say (site_on), patching only a site whose bytes differ: its
 * jump when enabling, the NOP when disabling, except for a shared site
 * that another key keeps a jump. Neighbouring sites to patch make a run,
 * and each run is one patch (every patch waits for all CPUs three
 * times).
 *
 * static_key_init_table brings the sites in line with the counts taken
 * before it ran by the same rule: a site that an earlier key of the pass
 * has already made right is left alone.
 */
static void jump_label_update(struct static_key *key, bool enable)
{
	struct jump_entry *run = NULL;

	if (!static_key_table_ready || !key->nr_entries)
		goto out;
	for (unsigned int i = 0; i <= key->nr_entries; i++) {
		struct jump_entry *e = key->entries + i;
		uint8_t want[JUMP_LABEL_INSN_SIZE];
		bool in_run = false;

		if (i < key->nr_entries &&
		    site_on(e, key, enable) == enable) {
			jump_insn_make(e, enable, want);
			in_run = !site_holds(e, want);
		}
		if (!in_run && run) {
			arch_jump_label_transform(run, (unsigned int)(e - run),
						  enable);
			run = NULL;
		}
		if (in_run && !run)
			run = e;
	}
out:
	trace_static_key_patch(key, enable);
}

void static_key_slow_inc(struct static_key *key)
{
	unsigned long flags = static_key_lock_take();
	int count = key->enabled;

	if (count < 0) {
		static_key_lock_give(flags);
		panic("static_key_slow_inc: %s: count %d is below zero",
		      key_name(key), count);
	}
	/* Sites first, then the count: the count never says "on" while a
	 * site still says "off" (/proc/static_keys is read under the lock;
	 * the host build's branch reads the count). */
	if (count == 0)
		jump_label_update(key, true);
	__atomic_store_n(&key->enabled, count + 1, __ATOMIC_RELEASE);
	static_key_lock_give(flags);
}

void static_key_slow_dec(struct static_key *key)
{
	unsigned long flags = static_key_lock_take();
	int count = key->enabled;

	if (count <= 0) {
		static_key_lock_give(flags);
		panic("static_key_slow_dec: %s: count below zero (it is %d, "
		      "and nobody holds a reference to drop)",
		      key_name(key), count);
	}
	__atomic_store_n(&key->enabled, count - 1, __ATOMIC_RELEASE);
	if (count == 1)
		jump_label_update(key, false);
	static_key_lock_give(flags);
}

/* The registered keys: DEFINE_STATIC_KEY_FALSE's static_keys table
 * (kernel/base/section_table.h). */
extern struct static_key *const __start_static_keys[];
extern struct static_key *const __stop_static_keys[];

static bool key_registered(const struct static_key *key)
{
	for (struct static_key *const *k = __start_static_keys;
	     k < __stop_static_keys; k++) {
		if (*k == key)
			return true;
	}
	return false;
}

void static_key_init_table(struct jump_entry *start, struct jump_entry *stop)
{
	unsigned long flags;

	jump_table_sort(start, stop);
	jump_table_assign(start, stop);
	for (struct jump_entry *e = start; e < stop; e++) {
		struct static_key *key = jump_entry_key(e);

		if (e != key->entries)
			continue;  /* each key once, at its first site */
		if (!key_registered(key))
			printk("static_key: key '%s' at %p has %u sites but is "
			       "not registered (define it with "
			       "DEFINE_STATIC_KEY_FALSE): /proc/static_keys "
			       "will not list it\n",
			       key_name(key), (void *)key, key->nr_entries);
	}

	flags = static_key_lock_take();
	static_key_table_ready = true;
	for (struct jump_entry *e = start; e < stop; e++) {
		struct static_key *key = jump_entry_key(e);

		if (e == key->entries && key->enabled > 0)
			jump_label_update(key, true);
	}
	static_key_lock_give(flags);
}

size_t static_keys_show(char *buf, size_t size)
{
	unsigned long flags = static_key_lock_take();
	size_t nkeys = (size_t)(__stop_static_keys - __start_static_keys);
	size_t len = static_keys_format(__start_static_keys, nkeys, buf,
					size);

	static_key_lock_give(flags);
	return len;
}
