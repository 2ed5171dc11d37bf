// SPDX-License-Identifier: MIT
/*
 * kernel/trace/trace.c - the tracer: the table of events, a ring buffer
 * per CPU, recording into it, turning events on and off, and reading the
 * entries back in time order (Linux: kernel/trace/trace.c,
 * kernel/trace/ring_buffer.c).
 *
 * Each CPU records into its own ring (kernel/trace/trace_ring.h), under the
 * ring's own lock with interrupts off: the writer is almost always alone,
 * and a reader (cat trace, trace_pipe) takes each ring's lock only to copy
 * one entry out. The lock is a raw one (arch_spin_lock): tracepoints sit
 * under other locks (the static-key lock, for one), and recording must
 * neither take part in their ordering nor be reported by the lock checker.
 *
 * Timestamps are ticks of the architecture's trace clock (the TSC,
 * arch/x86_64/asm/tracepoint.h) from trace_init. The clocks of the CPUs
 * agree, so entries of different CPUs are merged by timestamp.
 *
 * The events are the linker's trace_events table, which each subsystem
 * adds to (TRACE_EVENT_DEFINE); an event's number is its place in it.
 */
#include "kernel/trace/trace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/x86_64/asm/tracepoint.h"
#include "kernel/base/platform.h"
#include "kernel/base/spinlock.h"
#include "kernel/task/task.h"

/* The table's bounds (linker.ld: sorted by rank). */
extern const struct trace_event __start_trace_events[];
extern const struct trace_event __stop_trace_events[];

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

/* The table's bounds are two symbols of the linker's, not one C array:
 * measure it in bytes. */
unsigned int trace_event_count(void)
{
	return (unsigned int)(((uintptr_t)__stop_trace_events -
			       (uintptr_t)__start_trace_events) /
			      sizeof(struct trace_event));
}

const struct trace_event *trace_event_get(unsigned int id)
{
	return id < trace_event_count() ? &__start_trace_events[id] : NULL;
}

struct trace_entry *trace_record_begin(const struct trace_event *ev,
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
	e->ts = arch_trace_clock() - trace_tsc_base;
	e->event = (uint16_t)(((uintptr_t)ev -
			       (uintptr_t)__start_trace_events) /
			      sizeof(struct trace_event));
	e->cpu = (uint16_t)cpu;
	task = current;
	if (!task) {
		strcpy(e->comm, "<boot>");
	} else if (task->pid < 0) {
		/* A PID below zero is shown as <new>, not as a number. No
		 * task with one is made current: `run` charges a new task
		 * with the shell current, through set_active_memcg
		 * (kernel/sched/fork.c). */
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

bool trace_ring_ready(unsigned int cpu)
{
	return trace_cpu[cpu].ring.slots != NULL;
}

void trace_ring_give(unsigned int cpu, void *mem, size_t bytes)
{
	uint32_t fits = (uint32_t)(bytes / sizeof(struct trace_entry));
	uint32_t size = 1;

	if (trace_ring_ready(cpu) || !fits)
		return;
	while (size * 2 <= fits)
		size *= 2;
	trace_ring_init(&trace_cpu[cpu].ring, mem, size);
}

bool trace_rings_ready(void)
{
	if (__atomic_load_n(&trace_ready, __ATOMIC_ACQUIRE))
		return true;
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		if (!trace_ring_ready(cpu))
			return false;
	__atomic_store_n(&trace_ready, true, __ATOMIC_RELEASE);
	return true;
}

void trace_init(void)
{
	if (trace_event_count() > TRACE_EVENTS_MAX)
		panic("trace: %u events, at most %u", trace_event_count(),
		      TRACE_EVENTS_MAX);
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		spin_lock_init(&trace_cpu[cpu].lock);
	trace_tsc_base = arch_trace_clock();
}

int trace_event_enable(unsigned int id, bool on)
{
	uint64_t bit = 1ull << id;

	if (id >= trace_event_count())
		return -EINVAL;
	if (on == !!(trace_events_on & bit))
		return 0;
	if (on) {
		if (!trace_rings_ready())
			return -ENOMEM;
		trace_events_on |= bit;
		static_key_slow_inc(trace_event_get(id)->key);
	} else {
		trace_events_on &= ~bit;
		static_key_slow_dec(trace_event_get(id)->key);
	}
	return 0;
}

bool trace_event_enabled(unsigned int id)
{
	return id < TRACE_EVENTS_MAX && (trace_events_on & (1ull << id));
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
