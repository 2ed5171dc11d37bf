/*
 * kernel/lock_debug.h - spinlock debugging, in the debug build only
 * (`make DEBUG=1`, CONFIG_DEBUG_LOCKS): a small lockdep (Linux:
 * kernel/locking/lockdep.c). kernel/spinlock.h calls these around every
 * spin_lock and spin_unlock; in the normal build they do not exist and
 * spinlock.h is exactly what it was.
 *
 * Three rules, each a panic that names the lock and the rule:
 *
 *   order      two locks are always taken in the same order: if B was
 *              ever taken while A was held, taking A while B is held is
 *              an AB-BA deadlock waiting for its moment;
 *   recursion  a CPU never takes a spinlock it already holds (it would
 *              spin for ever);
 *   sleep      a task never sleeps (schedule()) while it holds a
 *              spinlock; and a CPU only unlocks what it locked.
 *
 * Locks are grouped in classes, as lockdep does, by where they were
 * initialised: SPINLOCK_INIT names a lock by file and line,
 * spin_lock_init() by the expression ("&counter->lock"), so that the
 * lock of every res_counter is one class. Only direct inversions between
 * two classes are found (not cycles through three), and nesting two locks
 * of one class (a parent's counter, then a child's) is not checked.
 */
#ifndef KERNEL_LOCK_DEBUG_H
#define KERNEL_LOCK_DEBUG_H

struct spinlock;

/* lock_debug_acquire - lock is about to be taken on this CPU: check the
 * order and recursion rules, then record it as held. */
void lock_debug_acquire(struct spinlock *lock);
/* lock_debug_release - lock was released on this CPU: forget it. */
void lock_debug_release(struct spinlock *lock);
/* lock_debug_might_sleep - the current task is about to sleep (where:
 * the function); panics if this CPU holds a spinlock. */
void lock_debug_might_sleep(const char *where);
/* lock_debug_off - stop checking (a panic is printing). */
void lock_debug_off(void);

#endif
