/*
 * kernel/spinlock.h - ticket spinlocks, the same in the kernel and on the host.
 *
 * A ticket lock hands the lock out in arrival order, so no CPU starves.
 * Taking a lock disables preemption (a task holding a spinlock must not be
 * switched out, or another task on this CPU could spin on it forever); the
 * _irqsave forms also disable interrupts, for locks that an interrupt
 * handler takes too.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/platform.h"

typedef struct spinlock {
	uint16_t next;   /* ticket the next arrival takes */
	uint16_t owner;  /* ticket being served */
} spinlock_t;

#define SPINLOCK_INIT {0, 0}

static inline void spin_lock_init(spinlock_t *lock)
{
	lock->next = 0;
	lock->owner = 0;
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
	arch_spin_lock(lock);
}

static inline void spin_unlock(spinlock_t *lock)
{
	arch_spin_unlock(lock);
	preempt_enable();
}

static inline unsigned long spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags = local_irq_save();
	preempt_disable();
	arch_spin_lock(lock);
	return flags;
}

static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	arch_spin_unlock(lock);
	preempt_enable();
	local_irq_restore(flags);
}

#endif
