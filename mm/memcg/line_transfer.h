/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/line_transfer.h - counting how often a shared cache line moves
 * between CPUs.
 *
 * QEMU's TCG does not model caches, so the cost of a counter that every
 * CPU writes cannot be seen in its timings. What can be counted instead is
 * the event that makes it expensive on real hardware: a write to the line
 * by a CPU other than the one that wrote it last. Each shared counter of
 * the charge path (the res and kmem counters, a domain's reference count)
 * carries a struct line_owner beside its data, in the same line; every
 * write calls line_write(). The bench charge_smp_* reports the sum as
 * transfers_per_1k (kernel/bench/bench_charge.c).
 *
 * It is always compiled in: a write that stays on one CPU costs a load
 * and a compare, and only the slow paths (a batch charged, a stock
 * drained) write these counters at all.
 */
#ifndef MM_MEMCG_LINE_TRANSFER_H
#define MM_MEMCG_LINE_TRANSFER_H

#include "kernel/platform.h"

struct line_owner {
	unsigned int last_cpu;    /* the CPU that wrote the line last, + 1 */
	unsigned long transfers;  /* writes by a CPU other than last_cpu */
};

/* line_write - note a write to the line that owner sits in. */
static inline void line_write(struct line_owner *owner)
{
	unsigned int me = smp_processor_id() + 1;

	if (unlikely(__atomic_load_n(&owner->last_cpu, __ATOMIC_RELAXED) != me)) {
		__atomic_store_n(&owner->last_cpu, me, __ATOMIC_RELAXED);
		__atomic_add_fetch(&owner->transfers, 1, __ATOMIC_RELAXED);
	}
}

static inline unsigned long line_transfers(const struct line_owner *owner)
{
	return __atomic_load_n(&owner->transfers, __ATOMIC_RELAXED);
}

#endif
