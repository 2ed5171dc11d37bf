// SPDX-License-Identifier: MIT
/*
 * kernel/static_key.c - switching static keys on and off: the
 * arch-independent part (Linux: kernel/jump_label.c).
 *
 * A static key is a reference count: the branch behind it is taken while
 * the count is above zero (kernel/static_key.h). Only the transitions
 * 0 -> 1 and 1 -> 0 change code: they ask the architecture to rewrite every
 * site of the key (arch_jump_label_transform), to a jump or back to the
 * NOP. Other changes of the count only count.
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
#include "kernel/static_key.h"

#include "kernel/locking/spinlock.h"
#include "kernel/static_key_table.h"
#include "kernel/trace/trace_events.h"

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

/* The whole table of sites, for the sites that several keys share. */
static struct jump_entry *jump_table_start, *jump_table_stop;

/*
 * site_held_by_other_key - is e's site also a site of another key whose
 * count is above zero (static_branch_unlikely_any)? Then it is a jump
 * already, and must stay one: key's transition leaves it alone. A scan
 * of the whole table, on the slow path of a transition only.
 */
static bool site_held_by_other_key(const struct jump_entry *e,
				   const struct static_key *key)
{
	uintptr_t code = jump_entry_code(e);

	for (const struct jump_entry *f = jump_table_start;
	     f < jump_table_stop; f++) {
		const struct static_key *other = jump_entry_key(f);

		if (other != key && jump_entry_code(f) == code &&
		    __atomic_load_n(&other->enabled, __ATOMIC_RELAXED) > 0)
			return true;
	}
	return false;
}

/*
 * jump_label_update - make every site of key what its count says, but a
 * shared site that another key holds on. The sites to patch go to the
 * architecture in runs of neighbouring entries, each run one patch.
 * at_boot: static_key_init_table is bringing the sites in line with
 * counts taken before it ran; a shared site whose other key is on may not
 * be patched yet, so what counts then is whether the site is a jump
 * already.
 */
static void jump_label_update(struct static_key *key, bool enable,
			      bool at_boot)
{
	struct jump_entry *run = NULL;

	if (!static_key_table_ready || !key->nr_entries)
		goto out;
	for (unsigned int i = 0; i <= key->nr_entries; i++) {
		struct jump_entry *e = key->entries + i;
		bool skip = i == key->nr_entries ||
			    (at_boot ? jump_site_state(e) == JUMP_SITE_JMP :
				       site_held_by_other_key(e, key));

		if (!skip && !run)
			run = e;
		if (skip && run) {
			arch_jump_label_transform(run, (unsigned int)(e - run),
						  enable);
			run = NULL;
		}
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
		jump_label_update(key, true, false);
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
		jump_label_update(key, false, false);
	static_key_lock_give(flags);
}

/* The registered keys: DEFINE_STATIC_KEY_FALSE's static_keys table
 * (kernel/section_table.h). */
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
	jump_table_start = start;
	jump_table_stop = stop;
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
			jump_label_update(key, true, true);
	}
	static_key_lock_give(flags);
}

size_t static_keys_show(char *buf, size_t size)
{
	unsigned long flags = static_key_lock_take();
	size_t len = static_keys_format(__start_static_keys,
					__stop_static_keys - __start_static_keys,
					buf, size);

	static_key_lock_give(flags);
	return len;
}
