// SPDX-License-Identifier: MIT
/*
 * kernel/locking/lock_debug.c - the debug build's spinlock checker (see
 * kernel/base/lock_debug.h): the locks each CPU holds, and which lock classes
 * have been seen taken while which others were held.
 *
 * Everything here runs with interrupts off (an interrupt handler takes
 * locks too, on the same CPU's list) and protects the shared order table
 * with a raw lock that is itself not checked.
 */
#ifdef CONFIG_DEBUG_LOCKS
#include "kernel/base/lock_debug.h"

#include <stdio.h>

#include "arch/x86_64/io.h"
#include "arch/x86_64/lapic.h"
#include "kernel/base/spinlock.h"
#include "kernel/task/task.h"

#define HELD_MAX 16      /* locks one CPU may hold at once */
#define CLASSES_MAX 128  /* lock classes */

struct held_locks {
	unsigned int depth;
	struct spinlock *locks[HELD_MAX];
};

static struct held_locks held[NR_CPUS];
static bool checking = true;

/* The classes seen so far (their keys), and after[a][b]: a lock of class
 * b was taken while one of class a was held. */
static const void *class_key[CLASSES_MAX];
static const char *class_name[CLASSES_MAX];
static unsigned int nr_classes;
static uint8_t after[CLASSES_MAX][CLASSES_MAX / 8];
static spinlock_t graph_lock = SPINLOCK_INIT;  /* raw: arch_spin_* only */

void lock_debug_off(void)
{
	WRITE_ONCE(checking, false);
}

/* A panic that stops the checker first: panic prints, and printing takes
 * the console's lock. */
#define lock_panic(...)                 \
	do {                            \
		lock_debug_off();       \
		panic(__VA_ARGS__);     \
	} while (0)

static const void *key_of(const struct spinlock *lock)
{
	return lock->name ? (const void *)lock->name : (const void *)lock;
}

static const char *name_of(const struct spinlock *lock, char *buf,
			   size_t size)
{
	if (lock->name)
		return lock->name;
	snprintf(buf, size, "lock at %p", (const void *)lock);
	return buf;
}

/* class_find - the class number of key, or -1; no lock needed: classes
 * are only ever appended, the key stored before the count. */
static int class_find(const void *key)
{
	unsigned int n = __atomic_load_n(&nr_classes, __ATOMIC_ACQUIRE);

	for (unsigned int i = 0; i < n; i++)
		if (class_key[i] == key)
			return (int)i;
	return -1;
}

/* class_of - the class number of lock, made on first sight (under
 * graph_lock, the only writer). */
static unsigned int class_of(const struct spinlock *lock)
{
	const void *key = key_of(lock);
	int c = class_find(key);

	if (c >= 0)
		return (unsigned int)c;
	arch_spin_lock(&graph_lock);
	c = class_find(key);
	if (c < 0) {
		if (nr_classes == CLASSES_MAX)
			lock_panic("lock_debug: more than %d lock classes",
				   CLASSES_MAX);
		class_key[nr_classes] = key;
		class_name[nr_classes] = lock->name;
		c = (int)nr_classes;
		__atomic_store_n(&nr_classes, nr_classes + 1, __ATOMIC_RELEASE);
	}
	arch_spin_unlock(&graph_lock);
	return (unsigned int)c;
}

static bool seen_after(unsigned int a, unsigned int b)
{
	return __atomic_load_n(&after[a][b / 8], __ATOMIC_ACQUIRE) &
	       (1u << (b % 8));
}

static _Noreturn void order_panic(struct spinlock *lock,
				  struct spinlock *held_lock)
{
	char n1[32], n2[32];

	lock_panic("spin_lock: lock order: CPU %u takes %s while holding %s, "
		   "but %s has been taken while holding %s before (rule: two "
		   "locks are always taken in the same order; this is an AB-BA "
		   "deadlock)", smp_processor_id(),
		   name_of(lock, n1, sizeof(n1)),
		   name_of(held_lock, n2, sizeof(n2)),
		   name_of(held_lock, n2, sizeof(n2)),
		   name_of(lock, n1, sizeof(n1)));
}

/* record_order - a lock of class c is taken while one of class d is
 * held. Edges already known are only read; a new one is checked again
 * and added under graph_lock (after warm-up, every CPU goes through here
 * without a shared lock: a debug kernel that serialised every nested lock
 * on one lock would convoy under an overcommitted host). */
static void record_order(unsigned int d, unsigned int c,
			 struct spinlock *lock, struct spinlock *held_lock)
{
	if (seen_after(c, d))
		order_panic(lock, held_lock);
	if (seen_after(d, c))
		return;
	arch_spin_lock(&graph_lock);
	if (seen_after(c, d)) {
		arch_spin_unlock(&graph_lock);
		order_panic(lock, held_lock);
	}
	__atomic_fetch_or(&after[d][c / 8], (uint8_t)(1u << (c % 8)),
			  __ATOMIC_RELEASE);
	arch_spin_unlock(&graph_lock);
}

void lock_debug_acquire(struct spinlock *lock)
{
	unsigned long flags;
	struct held_locks *h;
	char n1[32];

	if (!READ_ONCE(checking))
		return;
	flags = local_irq_save();
	h = &held[smp_processor_id()];
	for (unsigned int i = 0; i < h->depth; i++)
		if (h->locks[i] == lock)
			lock_panic("spin_lock: recursive locking: CPU %u takes "
				   "%s, which it already holds (rule: a "
				   "spinlock is not recursive; this CPU would "
				   "spin for ever)", smp_processor_id(),
				   name_of(lock, n1, sizeof(n1)));
	if (h->depth == HELD_MAX)
		lock_panic("spin_lock: CPU %u holds %d locks and takes %s "
			   "(rule: at most %d at once)", smp_processor_id(),
			   HELD_MAX, name_of(lock, n1, sizeof(n1)), HELD_MAX);

	if (h->depth > 0) {
		unsigned int c = class_of(lock);

		for (unsigned int i = 0; i < h->depth; i++) {
			unsigned int d = class_of(h->locks[i]);

			if (d != c)  /* one class nested: not checked */
				record_order(d, c, lock, h->locks[i]);
		}
	}
	h->locks[h->depth++] = lock;
	local_irq_restore(flags);
}

void lock_debug_release(struct spinlock *lock)
{
	unsigned long flags;
	struct held_locks *h;
	char n1[32];

	if (!READ_ONCE(checking))
		return;
	flags = local_irq_save();
	h = &held[smp_processor_id()];
	for (unsigned int i = h->depth; i-- > 0;) {
		if (h->locks[i] != lock)
			continue;
		for (; i + 1 < h->depth; i++)  /* not always the last one */
			h->locks[i] = h->locks[i + 1];
		h->depth--;
		local_irq_restore(flags);
		return;
	}
	lock_panic("spin_unlock: CPU %u releases %s, which it does not hold "
		   "(rule: a CPU unlocks only what it locked)",
		   smp_processor_id(), name_of(lock, n1, sizeof(n1)));
}

bool lock_debug_waited_too_long(struct lock_debug_wait *w)
{
	uint64_t now;

	/* Read the clock every 64Ki spins only: waits stay waits. */
	if (++w->spins % 65536 != 0 || !tsc_khz)
		return false;
	now = rdtsc();
	if (!w->since) {
		w->since = now;
		return false;
	}
	return now - w->since > LOCK_DEBUG_STUCK_SECONDS * 1000 * tsc_khz;
}

/* holder_of - a CPU whose held list has lock, or -1 (a raw lock, or one
 * taken by arch_spin_lock alone, is on no list). */
static int holder_of(const struct spinlock *lock)
{
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		for (unsigned int i = 0; i < READ_ONCE(held[cpu].depth); i++)
			if (READ_ONCE(held[cpu].locks[i]) == lock)
				return (int)cpu;
	return -1;
}

void lock_debug_spinning(struct spinlock *lock, struct lock_debug_wait *w)
{
	char n1[32];

	uint16_t owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);

	/* Handed on meanwhile: the queue moves, the wait starts again (a
	 * long queue on an overcommitted host is slow, not stuck). */
	if (w->spins && owner != w->owner) {
		w->since = 0;
		w->spins = 0;
	}
	w->owner = owner;
	if (!lock_debug_waited_too_long(w) || !READ_ONCE(checking))
		return;
	int holder = holder_of(lock);
	char by[48];

	if (holder >= 0)
		snprintf(by, sizeof(by), "held by CPU %d", holder);
	else
		snprintf(by, sizeof(by), "held without the checker");
	lock_panic("spin_lock: CPU %u has spun %d s for %s, which has not "
		   "changed hands, %s (rule: a lock is held only for a "
		   "moment; this is a deadlock: see where each CPU is below)",
		   smp_processor_id(),
		   LOCK_DEBUG_STUCK_SECONDS, name_of(lock, n1, sizeof(n1)), by);
}

void lock_debug_cross_call(const void *caller)
{
	unsigned long flags;
	struct held_locks *h;
	char n1[32];

	if (!READ_ONCE(checking))
		return;
	flags = local_irq_save();
	h = &held[smp_processor_id()];
	for (unsigned int i = 0; i < h->depth; i++) {
		if (h->locks[i]->polled)
			continue;
		lock_panic("smp_call_function_all: CPU %u (called from %p) "
			   "waits for every other CPU while it holds spinlock "
			   "%s (rule: no spinlock is held across a cross-CPU "
			   "call; a CPU spinning on it with interrupts off "
			   "would never answer)", smp_processor_id(), caller,
			   name_of(h->locks[i], n1, sizeof(n1)));
	}
	local_irq_restore(flags);
}

void lock_debug_might_sleep(const char *where)
{
	struct held_locks *h;
	struct task *task = current;
	char n1[32];

	if (!READ_ONCE(checking))
		return;
	h = &held[smp_processor_id()];
	if (h->depth == 0)
		return;
	lock_panic("%s: sleeping while atomic: task %d (%s) sleeps holding "
		   "spinlock %s (rule: a task never sleeps with a spinlock "
		   "held)", where, task ? task->pid : -1,
		   task ? task->comm : "?",
		   name_of(h->locks[h->depth - 1], n1, sizeof(n1)));
}
#endif
