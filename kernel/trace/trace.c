// SPDX-License-Identifier: MIT
/*
 * kernel/trace/trace.c - the tracer: a ring buffer per CPU, recording into
 * it, turning events on and off, and reading the entries back in time
 * order (Linux: kernel/trace/trace.c, kernel/trace/ring_buffer.c).
 *
 * Each CPU records into its own ring (kernel/trace/trace_ring.h), under the
 * ring's own lock with interrupts off: the writer is almost always alone,
 * and a reader (cat trace, trace_pipe) takes each ring's lock only to copy
 * one entry out. The lock is a raw one (arch_spin_lock): tracepoints sit
 * under other locks (the static-key lock, for one), and recording must
 * neither take part in their ordering nor be reported by the lock checker.
 *
 * Timestamps are TSC ticks from trace_init, shown in seconds with
 * microseconds as ftrace does. The TSCs of the CPUs agree (QEMU and every
 * CPU tally targets have an invariant TSC), so entries of different CPUs
 * are merged by timestamp.
 */
#include "kernel/trace/trace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/x86_64/lapic.h"
#include "arch/x86_64/io.h"
#include "kernel/base/spinlock.h"
#include "kernel/base/platform.h"
#include "kernel/task/task.h"
#include "mm/buddy.h"
#include "mm/page.h"

/* Each CPU's ring: 2^TRACE_RING_ORDER pages of entries (64 KiB: 512). */
#define TRACE_RING_ORDER 4

struct trace_cpu {
	spinlock_t lock;
	struct trace_ring ring;
} __cacheline_aligned;

static struct trace_cpu trace_cpu[NR_CPUS];
static bool trace_ready;
static bool tracing_on = true;  /* ftrace's default */
static uint64_t trace_tsc_base;
/* Events on, a bit each; changed under the control tree's lock. */
static uint64_t trace_events_on;

struct trace_entry *trace_record_begin(enum trace_event_id id,
				       unsigned long *flags)
{
	struct trace_cpu *tc;
	struct trace_entry *e;
	struct task *task;
	unsigned int cpu;

	if (!__atomic_load_n(&tracing_on, __ATOMIC_RELAXED) ||
	    !__atomic_load_n(&trace_ready, __ATOMIC_ACQUIRE))
		return NULL;
	*flags = local_irq_save();
	cpu = smp_processor_id();
	tc = &trace_cpu[cpu];
	arch_spin_lock(&tc->lock);
	e = trace_ring_reserve(&tc->ring);
	if (!e) {
		arch_spin_unlock(&tc->lock);
		local_irq_restore(*flags);
		return NULL;
	}
	e->ts = rdtsc() - trace_tsc_base;
	e->event = (uint16_t)id;
	e->cpu = (uint16_t)cpu;
	task = current;
	if (!task) {
		strcpy(e->comm, "<boot>");
	} else if (task->pid < 0) {
		/* charge_as_begin's stand-in (kernel/sched/fork.c): `run`
		 * charging a task that has no PID yet. */
		strcpy(e->comm, "<new>");
	} else {
		e->pid = task->pid;
		memcpy(e->comm, task->comm, TRACE_COMM_MAX - 1);
	}
	return e;
}

void trace_record_end(unsigned long flags)
{
	arch_spin_unlock(&trace_cpu[smp_processor_id()].lock);
	local_irq_restore(flags);
}

/*
 * trace_rings_alloc - give every CPU its ring, the first time an event is
 * turned on (not at boot: a kernel that never traces keeps its memory, and
 * its free lists are what they were without tracing - the page benchmarks
 * measure the same blocks). Returns 0, or -ENOMEM if a ring could not be
 * had (the rings already made are kept for the next try).
 */
static int trace_rings_alloc(void)
{
	uint32_t per_ring = (PAGE_SIZE << TRACE_RING_ORDER) /
			    sizeof(struct trace_entry);
	uint32_t size = 1;

	if (__atomic_load_n(&trace_ready, __ATOMIC_ACQUIRE))
		return 0;
	while (size * 2 <= per_ring)
		size *= 2;
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		struct page *page;

		if (trace_cpu[cpu].ring.slots)
			continue;
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, TRACE_RING_ORDER);
		if (!page)
			return -ENOMEM;
		trace_ring_init(&trace_cpu[cpu].ring, page_address(page), size);
	}
	__atomic_store_n(&trace_ready, true, __ATOMIC_RELEASE);
	return 0;
}

void trace_init(void)
{
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		spin_lock_init(&trace_cpu[cpu].lock);
	trace_tsc_base = rdtsc();
	trace_fs_init();
}

int trace_event_enable(enum trace_event_id id, bool on)
{
	uint64_t bit = 1ull << id;

	if (on == !!(trace_events_on & bit))
		return 0;
	if (on) {
		if (trace_rings_alloc() < 0)
			return -ENOMEM;
		trace_events_on |= bit;
		static_key_slow_inc(trace_events[id].key);
	} else {
		trace_events_on &= ~bit;
		static_key_slow_dec(trace_events[id].key);
	}
	return 0;
}

bool trace_event_enabled(enum trace_event_id id)
{
	return trace_events_on & (1ull << id);
}

void trace_set_on(bool on)
{
	__atomic_store_n(&tracing_on, on, __ATOMIC_RELAXED);
}

bool trace_is_on(void)
{
	return __atomic_load_n(&tracing_on, __ATOMIC_RELAXED);
}

/* ring_lock / ring_unlock - a reader's hold on one CPU's ring. */
static unsigned long ring_lock(unsigned int cpu)
{
	unsigned long flags = local_irq_save();

	arch_spin_lock(&trace_cpu[cpu].lock);
	return flags;
}

static void ring_unlock(unsigned int cpu, unsigned long flags)
{
	arch_spin_unlock(&trace_cpu[cpu].lock);
	local_irq_restore(flags);
}

void trace_clear(void)
{
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		unsigned long flags = ring_lock(cpu);

		trace_ring_clear(&trace_cpu[cpu].ring);
		ring_unlock(cpu, flags);
	}
}

void trace_totals(struct trace_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		unsigned long flags = ring_lock(cpu);
		struct trace_ring *r = &trace_cpu[cpu].ring;

		t->entries += trace_ring_entries(r);
		t->written += r->written;
		t->lost += r->lost;
		ring_unlock(cpu, flags);
	}
}

bool trace_next(uint64_t *pos, bool consume, struct trace_entry *out)
{
	int best = -1;
	uint64_t best_ts = 0;

	/* The oldest head entry of all the rings (a look, no copy kept). */
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		unsigned long flags = ring_lock(cpu);
		struct trace_ring *r = &trace_cpu[cpu].ring;
		uint64_t at = consume ? r->tail : pos[cpu];

		if (at < r->tail)
			at = r->tail;
		if (at < r->head) {
			uint64_t ts = r->slots[at & (r->size - 1)].ts;

			if (best < 0 || ts < best_ts) {
				best = (int)cpu;
				best_ts = ts;
			}
		}
		ring_unlock(cpu, flags);
	}
	if (best < 0)
		return false;

	/* Take it (it may have been overwritten meanwhile: then this is the
	 * oldest entry left on that CPU, which is as good). */
	unsigned long flags = ring_lock((unsigned int)best);
	struct trace_ring *r = &trace_cpu[best].ring;
	bool got = consume ? trace_ring_consume(r, out)
			   : trace_ring_peek(r, &pos[best], out);

	if (got && !consume)
		pos[best]++;
	ring_unlock((unsigned int)best, flags);
	return got;
}

void trace_format(const struct trace_entry *e, char *buf, size_t size)
{
	uint64_t us = tsc_khz ? e->ts * 1000 / tsc_khz : e->ts / 1000;
	char fields[192];
	char task[TRACE_COMM_MAX + 16];
	const struct trace_event *ev = e->event < NR_TRACE_EVENTS ?
					       &trace_events[e->event] : NULL;

	fields[0] = '\0';
	if (ev && ev->print)
		ev->print(e, fields, sizeof(fields));
	snprintf(task, sizeof(task), "%s-%d", e->comm, (int)e->pid);
	snprintf(buf, size, "%22s [%03u] %5llu.%06llu: %s: %s\n", task,
		 (unsigned int)e->cpu, (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000),
		 ev ? ev->name : "unknown", fields);
}
