// SPDX-License-Identifier: MIT
/*
 * kernel/programs/worker_share.c - how a worker next to a fork bomb fares
 * (see kernel/programs/worker_share.h): its rate, its CPU time against
 * its fair share, and how long the shell waits for the CPU. The fork-bomb
 * demonstration (demo.c) and the four containments (contain.c) measure
 * with it.
 */
#include "kernel/programs/worker_share.h"

#include <string.h>

#include "arch/x86_64/io.h"
#include "arch/x86_64/lapic.h"
#include "kernel/base/platform.h"
#include "kernel/sched/sched.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"

/* The worker's CPU time is sampled this often during a status second:
 * short enough that it rarely moves to the other CPU within a sample. */
#define SHARE_SAMPLE_MS 50

/* tsc_us - microseconds by the TSC: jiffies count the boot CPU's ticks,
 * and a tick handler busy with thousands of wake-ups can miss some, which
 * would make a rate measured by jiffies look better than it is. */
uint64_t tsc_us(void)
{
	uint64_t mhz = tsc_khz / 1000;

	return rdtsc() / (mhz ? mhz : 1);  /* rdtsc() * 1000 could overflow */
}

/* A sleep of the shell, and when its timer woke it. */
struct shell_nap {
	struct timer timer;
	struct task *task;
	uint64_t woken;  /* jiffies + 1 when the timer fired; 0 until then */
};

static void shell_nap_wake(struct timer *timer)
{
	struct shell_nap *nap = timer->data;

	WRITE_ONCE(nap->woken, jiffies + 1);
	wake_up_task(nap->task);
}

/*
 * shell_nap - sleep ms milliseconds (as msleep, kernel/sched/sched.c), and
 * return how long the shell then waited for the CPU, in ms: from its
 * wake-up (in the timer interrupt) until it ran again. That is the wait a
 * key press would see - the console's interrupt wakes the shell the same
 * way - and the part of "the shell answers within 100 ms" that the kernel
 * decides.
 *
 * Counted in ticks (jiffies, 1 ms each), the kernel's own clock: ticks
 * advance while the kernel runs other tasks, but not while the host has
 * descheduled QEMU's vCPU thread (the timer interrupts missed meanwhile
 * come as one), which under TCG on a loaded host can last 100 ms and
 * more, and which no kernel can prevent. (A tick handler that ran longer
 * than a tick would be undercounted too: the limit of this clock.)
 */
static uint64_t shell_nap(unsigned int ms)
{
	struct shell_nap nap = {.task = current, .woken = 0};
	uint64_t end = jiffies + ((uint64_t)ms * HZ + 999) / 1000;

	timer_setup(&nap.timer, shell_nap_wake, &nap);
	set_current_state(TASK_SLEEPING);
	timer_add(&nap.timer, end);
	while (!READ_ONCE(nap.woken)) {
		schedule();
		set_current_state(TASK_SLEEPING);
	}
	set_current_state(TASK_RUNNING);
	timer_del(&nap.timer);
	uint64_t woken = nap.woken - 1, now = jiffies;
	return now > woken ? (now - woken) * 1000 / HZ : 0;
}

static uint64_t worker_work(int worker_pid)
{
	struct task *t = worker_pid < 0 ? NULL : task_get(worker_pid);
	uint64_t work = t ? t->work : 0;
	if (t)
		task_put(t);
	return work;
}

/*
 * fair_share - the worker's fair share of total CPU time on its CPU, when
 * the other two domains there used a and b of it (the system tasks, which
 * the scheduler treats as one domain, and the other user domains - in the
 * demo, the bomb). Max-min fairness, as the scheduler's rule is (a CPU's
 * time equally among the domains that want it): each of the three
 * is owed an equal part; what a domain does not use goes to the others.
 * The worker always wants the CPU, so it is owed total - a - b if both
 * used less than a third, else what is left when the one that used more
 * than its part is cut back to it. Never more than what the others left
 * it: a share below 100% means that some domain got more than its part.
 */
static uint64_t fair_share(uint64_t total, uint64_t a, uint64_t b)
{
	uint64_t lo = a < b ? a : b, hi = a < b ? b : a;

	if (3 * lo >= total)
		return total / 3;
	if (lo + 2 * hi >= total)
		return (total - lo) / 2;
	return total - lo - hi;
}

/* share_add - one sample, from the snapshots a and b of the worker's CPU. */
static void share_add(struct worker_share *sh, const struct sched_cpu_times *a,
		      const struct sched_cpu_times *b)
{
	if (a->cpu != b->cpu) {  /* it moved: neither CPU's figures are its */
		sh->moved++;
		return;
	}
	uint64_t total = b->clock - a->clock, got = b->task - a->task;
	uint64_t system = b->system - a->system, idle = b->idle - a->idle;
	uint64_t used = got + system + idle;
	uint64_t others = total > used ? total - used : 0;

	/* Idle time on its CPU while it was runnable counts against the
	 * scheduler: it is in total, and owed. */
	sh->total += total;
	sh->got += got;
	sh->owed += fair_share(total, system, others);
	sh->samples++;
}

uint64_t worker_measure(int worker_pid, unsigned int ms,
			struct worker_share *sh)
{
	struct task *t = worker_pid < 0 ? NULL : task_get(worker_pid);
	struct sched_cpu_times a, b;
	uint64_t w0 = worker_work(worker_pid), t0 = tsc_us();

	memset(sh, 0, sizeof(*sh));
	if (t)
		sched_cpu_times(t, &a);
	for (unsigned int done = 0; done < ms; done += SHARE_SAMPLE_MS) {
		unsigned int nap = ms - done;
		if (nap > SHARE_SAMPLE_MS)
			nap = SHARE_SAMPLE_MS;
		uint64_t late = shell_nap(nap);

		if (late > sh->shell_wait_ms)
			sh->shell_wait_ms = late;
		if (!t)
			continue;
		sched_cpu_times(t, &b);
		share_add(sh, &a, &b);
		a = b;
	}
	if (t)
		task_put(t);
	uint64_t w1 = worker_work(worker_pid), t1 = tsc_us();
	return t1 > t0 ? (w1 - w0) * 1000000 / (t1 - t0) : 0;
}

unsigned long percent(uint64_t part, uint64_t whole)
{
	return whole ? (unsigned long)(part * 100 / whole) : 0;
}
