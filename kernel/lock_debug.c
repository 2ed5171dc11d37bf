/*
 * kernel/lock_debug.c - the debug build's spinlock checker (see
 * kernel/lock_debug.h): the locks each CPU holds, and which lock classes
 * have been seen taken while which others were held.
 *
 * Everything here runs with interrupts off (an interrupt handler takes
 * locks too, on the same CPU's list) and protects the shared order table
 * with a raw lock that is itself not checked.
 */
#ifdef CONFIG_DEBUG_LOCKS
#include "kernel/lock_debug.h"

#include <stdio.h>

#include "kernel/spinlock.h"
#include "kernel/task.h"

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

/* class_of - the class number of lock, made on first sight; graph_lock
 * held. */
static unsigned int class_of(const struct spinlock *lock)
{
	const void *key = key_of(lock);

	for (unsigned int i = 0; i < nr_classes; i++)
		if (class_key[i] == key)
			return i;
	if (nr_classes == CLASSES_MAX)
		lock_panic("lock_debug: more than %d lock classes", CLASSES_MAX);
	class_key[nr_classes] = key;
	class_name[nr_classes] = lock->name;
	return nr_classes++;
}

static bool seen_after(unsigned int a, unsigned int b)
{
	return after[a][b / 8] & (1u << (b % 8));
}

void lock_debug_acquire(struct spinlock *lock)
{
	unsigned long flags;
	struct held_locks *h;
	char n1[32], n2[32];

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

	arch_spin_lock(&graph_lock);
	unsigned int c = class_of(lock);
	for (unsigned int i = 0; i < h->depth; i++) {
		unsigned int d = class_of(h->locks[i]);

		if (d == c)
			continue;  /* one class nested: not checked */
		if (seen_after(c, d)) {
			arch_spin_unlock(&graph_lock);
			lock_panic("spin_lock: lock order: CPU %u takes %s "
				   "while holding %s, but %s has been taken "
				   "while holding %s before (rule: two locks "
				   "are always taken in the same order; this "
				   "is an AB-BA deadlock)", smp_processor_id(),
				   name_of(lock, n1, sizeof(n1)),
				   name_of(h->locks[i], n2, sizeof(n2)),
				   name_of(h->locks[i], n2, sizeof(n2)),
				   name_of(lock, n1, sizeof(n1)));
		}
		after[d][c / 8] |= 1u << (c % 8);
	}
	arch_spin_unlock(&graph_lock);
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
