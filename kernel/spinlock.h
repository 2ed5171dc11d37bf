/*
 * kernel/spinlock.h - ticket spinlocks, the same in the kernel and on the host.
 *
 * A ticket lock hands the lock out in arrival order, so no CPU starves.
 * Taking a lock disables preemption (a task holding a spinlock must not be
 * switched out, or another task on this CPU could spin on it forever); the
 * _irqsave forms also disable interrupts, for locks that an interrupt
 * handler takes too.
 *
 * In the debug build (make DEBUG=1, CONFIG_DEBUG_LOCKS) every lock also
 * has a name, and spin_lock/spin_unlock report to kernel/lock_debug.c,
 * which panics on a lock-order inversion, a recursive lock or an unlock
 * of a lock not held. The normal build's locks are unchanged.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/platform.h"

typedef struct spinlock {
	uint16_t next;   /* ticket the next arrival takes */
	uint16_t owner;  /* ticket being served */
#ifdef CONFIG_DEBUG_LOCKS
	const char *name;  /* its class: where it was initialised */
#endif
} spinlock_t;

#ifdef CONFIG_DEBUG_LOCKS
#include "kernel/lock_debug.h"
#define __LOCK_STR(x) #x
#define __LOCK_LINE(x) __LOCK_STR(x)
#define SPINLOCK_INIT {0, 0, __FILE__ ":" __LOCK_LINE(__LINE__)}
#define spin_lock_init(lock) __spin_lock_init((lock), #lock)
#define spin_debug_acquire(lock) lock_debug_acquire(lock)
#define spin_debug_release(lock) lock_debug_release(lock)
#else
#define SPINLOCK_INIT {0, 0}
#define spin_lock_init(lock) __spin_lock_init((lock), NULL)
#define spin_debug_acquire(lock) ((void)0)
#define spin_debug_release(lock) ((void)0)
#endif

static inline void __spin_lock_init(spinlock_t *lock, const char *name)
{
	lock->next = 0;
	lock->owner = 0;
#ifdef CONFIG_DEBUG_LOCKS
	lock->name = name;
#endif
}

static inline void arch_spin_lock(spinlock_t *lock)
{
	uint16_t ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
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
