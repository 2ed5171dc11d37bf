/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/spinlock.h - ticket spinlocks, the same in the kernel and on the
 * host.
 *
 * A ticket lock hands the lock out in arrival order, so no CPU starves.
 * Taking a lock disables preemption (a task holding a spinlock must not be
 * switched out, or another task on this CPU could spin on it forever); the
 * _irqsave forms also disable interrupts, for locks that an interrupt
 * handler takes too.
 *
 * In the debug build (make DEBUG=1, CONFIG_DEBUG_LOCKS) every lock also
 * has a name, and spin_lock/spin_unlock report to kernel/locking/lock_debug.c,
 * which panics on a lock-order inversion, a recursive lock or an unlock
 * of a lock not held, a lock that does not change hands for 20 s (a deadlock:
 * the panic shows where every CPU is), and smp_call_function_all on a CPU
 * that holds a
 * lock (SPINLOCK_INIT_POLLED marks a lock whose waiters serve such calls,
 * and so may be held across one). The normal build's locks are unchanged.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/base/platform.h"

typedef struct spinlock {
	uint16_t next;   /* ticket the next arrival takes */
	uint16_t owner;  /* ticket being served */
#ifdef CONFIG_DEBUG_LOCKS
	const char *name;  /* its class: where it was initialised */
	bool polled;       /* waiters serve cross-CPU calls: may be held
			    * across smp_call_function_all */
#endif
} spinlock_t;

#ifdef CONFIG_DEBUG_LOCKS
#include "kernel/base/lock_debug.h"
#define __LOCK_STR(x) #x
#define __LOCK_LINE(x) __LOCK_STR(x)
#define SPINLOCK_INIT {0, 0, __FILE__ ":" __LOCK_LINE(__LINE__), false}
#define SPINLOCK_INIT_POLLED {0, 0, __FILE__ ":" __LOCK_LINE(__LINE__), true}
#define spin_lock_init(lock) __spin_lock_init((lock), #lock)
#define spin_debug_acquire(lock) lock_debug_acquire(lock)
#define spin_debug_release(lock) lock_debug_release(lock)
#define spin_debug_cross_call(caller) lock_debug_cross_call(caller)
#else
#define SPINLOCK_INIT {0, 0}
#define SPINLOCK_INIT_POLLED {0, 0}
#define spin_lock_init(lock) __spin_lock_init((lock), NULL)
#define spin_debug_acquire(lock) ((void)0)
#define spin_debug_release(lock) ((void)0)
#define spin_debug_cross_call(caller) ((void)0)
#endif

static inline void __spin_lock_init(spinlock_t *lock, const char *name)
{
	lock->next = 0;
	lock->owner = 0;
#ifdef CONFIG_DEBUG_LOCKS
	lock->name = name;
	lock->polled = false;
#endif
}

static inline void arch_spin_lock(spinlock_t *lock)
{
	uint16_t ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);
#ifdef CONFIG_DEBUG_LOCKS
	struct lock_debug_wait wait = {0};
#endif

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket) {
		cpu_relax();
#ifdef CONFIG_DEBUG_LOCKS
		lock_debug_spinning(lock, &wait);
#endif
	}
}

/* arch_spin_trylock - take the lock if it is free, without waiting; true
 * if taken. For waiters that must do something else while they wait (serve
 * other CPUs' function calls). */
static inline bool arch_spin_trylock(spinlock_t *lock)
{
	uint16_t owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	uint16_t expected = owner;  /* free: no ticket handed out past owner */

	return __atomic_compare_exchange_n(&lock->next, &expected,
					   (uint16_t)(owner + 1), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void arch_spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->owner, (uint16_t)(lock->owner + 1),
			 __ATOMIC_RELEASE);
}

/*
 * spin_lock_polled - spin_lock for a lock that may be held across
 * smp_call_function_all (made with SPINLOCK_INIT_POLLED): while it waits,
 * the CPU keeps answering other CPUs' cross-CPU calls, so the holder's
 * call completes even if this CPU waits with interrupts off. Released with
 * spin_unlock.
 */
static inline void spin_lock_polled(spinlock_t *lock)
{
	preempt_disable();
	spin_debug_acquire(lock);
	while (!arch_spin_trylock(lock)) {
		smp_call_function_poll();
		cpu_relax();
	}
}

/*
 * arch_spin_lock_checked / arch_spin_unlock_checked - arch_spin_lock and
 * arch_spin_unlock, seen by the debug build's checker, for locks whose
 * holders leave preemption alone: the run queues (held across a context
 * switch, with interrupts off) and the timer bases.
 */
static inline void arch_spin_lock_checked(spinlock_t *lock)
{
	spin_debug_acquire(lock);
	arch_spin_lock(lock);
}

static inline void arch_spin_unlock_checked(spinlock_t *lock)
{
	arch_spin_unlock(lock);
	spin_debug_release(lock);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&lock->next, __ATOMIC_RELAXED);
}

static inline void spin_lock(spinlock_t *lock)
{
	preempt_disable();
	spin_debug_acquire(lock);
	arch_spin_lock(lock);
}

static inline void spin_unlock(spinlock_t *lock)
{
	arch_spin_unlock(lock);
	spin_debug_release(lock);
	preempt_enable();
}

static inline unsigned long spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags = local_irq_save();
	preempt_disable();
	spin_debug_acquire(lock);
	arch_spin_lock(lock);
	return flags;
}

static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	arch_spin_unlock(lock);
	spin_debug_release(lock);
	preempt_enable();
	local_irq_restore(flags);
}

#endif
