/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/lock_debug.h - spinlock debugging, in the debug build only
 * (`make DEBUG=1`, CONFIG_DEBUG_LOCKS): a small lockdep (Linux:
 * kernel/locking/lockdep.c). kernel/base/spinlock.h calls these around every
 * spin_lock and spin_unlock; in the normal build they do not exist and
 * spinlock.h is exactly what it was.
 *
 * Five rules, each a panic that names the lock and the rule:
 *
 *   order      two locks are always taken in the same order: if B was
 *              ever taken while A was held, taking A while B is held is
 *              an AB-BA deadlock waiting for its moment;
 *   recursion  a CPU never takes a spinlock it already holds (it would
 *              spin for ever);
 *   sleep      a task never sleeps (schedule()) while it holds a
 *              spinlock; and a CPU only unlocks what it locked;
 *   stuck      no CPU spins for a lock, or waits for the other CPUs,
 *              for LOCK_DEBUG_STUCK_SECONDS: that is a deadlock, and the
 *              panic names the lock and its holder, and the report shows
 *              where every CPU was (smp_report_stopped_cpus);
 *   cross call a CPU never waits for the other CPUs
 *              (smp_call_function_all) while it holds a spinlock: a CPU
 *              spinning on that lock with interrupts off never answers,
 *              and both wait for ever. A lock whose waiters answer such
 *              calls while they spin (the static-key lock) is made with
 *              SPINLOCK_INIT_POLLED and exempt.
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

#include <stdbool.h>
#include <stdint.h>

struct spinlock;

/* One CPU's wait for one lock (or for other CPUs): when it began. */
struct lock_debug_wait {
	uint64_t since;   /* rdtsc() at the first look; 0: none */
	uint32_t spins;
	/* a lock's: the ticket being served at the last look */
	uint16_t owner;
};

/* lock_debug_spinning - called in a spin loop: panics once the lock has
 * not changed hands for LOCK_DEBUG_STUCK_SECONDS, naming the lock and
 * which CPU holds it (rule: no lock is held, and no CPU waits, that
 * long). */
#define LOCK_DEBUG_STUCK_SECONDS 20
void lock_debug_spinning(struct spinlock *lock, struct lock_debug_wait *w);
/* lock_debug_waited_too_long - the same test for any other wait: true
 * once w has lasted LOCK_DEBUG_STUCK_SECONDS. */
bool lock_debug_waited_too_long(struct lock_debug_wait *w);

/* lock_debug_acquire - lock is about to be taken on this CPU: check the
 * order and recursion rules, then record it as held. */
void lock_debug_acquire(struct spinlock *lock);
/* lock_debug_release - lock was released on this CPU: forget it. */
void lock_debug_release(struct spinlock *lock);
/* lock_debug_might_sleep - the current task is about to sleep (where:
 * the function); panics if this CPU holds a spinlock. */
void lock_debug_might_sleep(const char *where);
/* lock_debug_cross_call - this CPU is about to wait for every other CPU
 * (smp_call_function_all, called from caller); panics if it holds a
 * spinlock that is not SPINLOCK_INIT_POLLED. */
void lock_debug_cross_call(const void *caller);
/* lock_debug_off - stop checking (a panic is printing). */
void lock_debug_off(void);

#endif
