/* SPDX-License-Identifier: MIT */
/*
 * mm/line_transfer.h - counting how often a shared cache line moves
 * between CPUs.
 *
 * QEMU's TCG does not model caches, so the cost of a counter that every
 * CPU writes cannot be seen in its timings. What can be counted instead is
 * the event that makes it expensive on real hardware: a write to the line
 * by a CPU other than the one that wrote it last. Each shared counter of
 * the charge path (the res and kmem counters, a domain's reference count)
 * and each slab cache's lock carries a struct line_writer beside its data,
 * in the same line; every write calls line_write(). The bench
 * charge_smp_* and slab_smp report the sum as transfers_per_1k
 * (kernel/bench/bench_charge.c, bench_slab.c), and so does the host
 * benchmark (tests/bench/host_charge.c).
 *
 * Counting is always compiled in, but off: line_write() is a 5-byte NOP
 * behind the static key line_transfer_key (listed in /proc/static_keys)
 * until a benchmark takes it with line_transfer_count_start(), for its
 * measured runs only: a charge not being measured passes one NOP per
 * shared write (docs/performance-notes.md). Writes made while the key is
 * off are not
 * counted; the line's last writer is then stale, which costs at most one
 * miscounted transfer per line when counting starts.
 */
#ifndef MM_LINE_TRANSFER_H
#define MM_LINE_TRANSFER_H

#include "kernel/base/platform.h"
#include "kernel/base/static_key.h"

struct line_writer {
	unsigned int last_cpu;    /* the CPU that wrote the line last, + 1 */
	unsigned long transfers;  /* writes by a CPU other than last_cpu */
};

/* On while some benchmark counts transfers (mm/memcg/res_counter.c). */
extern struct static_key line_transfer_key;

/* line_write - note a write to the cache line that line sits in (if counting
 * is on). No call, no register beyond two scratch ones: the charge
 * path's leaf functions stay leaves. */
static __always_inline void
line_write(struct line_writer *line)
{
	if (static_branch_unlikely(&line_transfer_key)) {
		unsigned int me = smp_processor_id() + 1;

		if (__atomic_load_n(&line->last_cpu, __ATOMIC_RELAXED) != me) {
			__atomic_store_n(&line->last_cpu, me,
					 __ATOMIC_RELAXED);
			__atomic_add_fetch(&line->transfers, 1,
					   __ATOMIC_RELAXED);
		}
	}
}

static inline unsigned long line_transfers(const struct line_writer *line)
{
	return __atomic_load_n(&line->transfers, __ATOMIC_RELAXED);
}

/* line_transfer_count_start / _stop - count transfers from now on /
 * no more (a reference on line_transfer_key each: slow, the sites are
 * patched; not with a spinlock held). */
static inline void line_transfer_count_start(void)
{
	static_key_slow_inc(&line_transfer_key);
}

static inline void line_transfer_count_stop(void)
{
	static_key_slow_dec(&line_transfer_key);
}

#endif
