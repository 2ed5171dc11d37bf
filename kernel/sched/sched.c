// SPDX-License-Identifier: MIT
/*
 * kernel/sched/sched.c - the SMP scheduler: per-CPU run queues, switching,
 * preemption, wake-ups, sleeping, the idle loop and load balancing (see
 * kernel/sched/sched.h; the queueing policy is kernel/task/runqueue.c).
 *
 * The path of a switch, in order:
 *
 *   schedule() / preempt_schedule() / the timer's interrupt exit
 *     __schedule(preempt)      interrupts off, this CPU's run queue locked;
 *                              the running task goes back on the queue
 *                              (or leaves it, if it sleeps or has exited)
 *       rq_pick_next()          the next task, or the idle task
 *       context_switch()        arch/x86_64/switch.S: registers and FPU
 *     sched_finish_switch()     in the next task: unlock the run queue; a
 *                              task that has exited goes to the reaper,
 *                              which frees its stack
 *
 * A task is preempted only where preempt_count() is 0 (no spinlock held)
 * and interrupts are on - the timer's interrupt exit, or preempt_enable()
 * once a reschedule is pending.
 */
#include "kernel/sched/sched.h"

#include <stdio.h>

#include "arch/x86_64/asm/cpu.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/smp.h"
#include "arch/x86_64/trap.h"
#include "kernel/lib/emit.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/freezer.h"
#include "kernel/base/panic.h"
#include "kernel/base/platform.h"
#include "kernel/task/runqueue.h"
#include "kernel/base/spinlock.h"
#include "kernel/task/task.h"
#include "kernel/sched/task_table.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "kernel/sched/wait.h"
#include "mm/memcg/memcontrol.h"
#include "mm/slab.h"

/* The most tasks one balancing pass moves. */
#define BALANCE_MOVES_MAX 32

struct sched_cpu {
	spinlock_t lock;           /* the run queue; interrupts off */
	struct runqueue rq;
	struct task *curr;         /* running: a task, or idle */
	struct task *idle;
	struct task *switch_prev;  /* the task being switched away from */
	uint64_t clock;            /* TSC when curr's time was last counted */
	unsigned int balance_ticks;
	bool ready;
	/* Statistics, for /proc/sched. */
	uint64_t nr_switches;
	uint64_t nr_pulled;        /* tasks this CPU took from others */
	uint64_t idle_ticks;       /* ticks that found it idle */
	uint64_t idle_time;        /* TSC cycles its idle task ran */
	uint64_t system_time;      /* TSC cycles system tasks ran */
	struct rq_census census;   /* scratch for balancing and placement,
				    * used with interrupts off */
} __cacheline_aligned;

static struct sched_cpu sched_cpus[NR_CPUS];
static struct runqueue *all_rqs[NR_CPUS];
static struct task idle_tasks[NR_CPUS];

/* The domain key of system tasks: they share time as one domain. */
static int system_domain_key;

bool sched_running;

extern void context_switch(struct cpu_context *prev, struct cpu_context *next);

static inline struct sched_cpu *this_sched(void)
{
	return this_cpu()->scheduler;
}

static inline struct task *task_of(struct rq_entity *e)
{
	return container_of(e, struct task, se);
}

/* task_key - the domain a task's time is counted to. */
static void *task_key(struct task *task)
{
	struct mem_cgroup *memcg;

	if (task->flags & TASK_SYSTEM)
		return &system_domain_key;
	memcg = READ_ONCE(task->memcg);
	return memcg ? (void *)memcg : (void *)root_mem_cgroup;
}

/* resched_cpu - make cpu reschedule soon: at once if it is this one (on
 * the way out of the interrupt, or at preempt_enable), else by an IPI. */
static void resched_cpu(unsigned int cpu)
{
	if (cpu == smp_processor_id()) {
		this_cpu()->need_resched = 1;
		return;
	}
	cpus[cpu].need_resched = 1;
	smp_send_reschedule(cpu);
}

/* update_curr - count the time the running task has had since last time. */
static void update_curr(struct sched_cpu *sc)
{
	uint64_t now = rdtsc();
	uint64_t delta = now - sc->clock;

	sc->clock = now;
	sc->curr->runtime += delta;
	if (sc->curr->flags & TASK_IDLE)
		sc->idle_time += delta;
	else if (sc->curr->flags & TASK_SYSTEM)
		sc->system_time += delta;
	rq_account(&sc->rq, delta);
}

/* lock_task_rq - lock the run queue the task is on (or last ran on); it
 * may move between reading task->cpu and locking. Interrupts off. */
static struct sched_cpu *lock_task_rq(struct task *task)
{
	for (;;) {
		unsigned int cpu = READ_ONCE(task->cpu);
		struct sched_cpu *sc = &sched_cpus[cpu];

		arch_spin_lock_checked(&sc->lock);
		if (READ_ONCE(task->cpu) == cpu)
			return sc;
		arch_spin_unlock_checked(&sc->lock);
	}
}

void sched_cpu_times(struct task *task, struct sched_cpu_times *times)
{
	unsigned long flags = local_irq_save();
	struct sched_cpu *sc = lock_task_rq(task);

	/* Everything as of sc->clock, the last time update_curr ran there:
	 * the parts then add up to the whole. */
	times->cpu = task->cpu;
	times->clock = sc->clock;
	times->task = task->runtime;
	times->idle = sc->idle_time;
	times->system = sc->system_time;
	arch_spin_unlock_checked(&sc->lock);
	local_irq_restore(flags);
}

/* --- switching ------------------------------------------------------------ */

static void check_stack(struct task *task)
{
	if (task->stack && !task_stack_intact(task))
		panic("sched: task %d (%s) overran its %lu KiB kernel stack",
		      task->pid, task->comm, THREAD_SIZE / 1024);
}

void sched_finish_switch(void)
{
	struct sched_cpu *sc = this_sched();
	struct task *prev = sc->switch_prev;
	/*
	 * Whether prev has exited is read while its run queue is still
	 * locked. A prev that has not stays runnable (preempted, or killed
	 * in its sleep): once the lock is dropped another CPU may pull it,
	 * run it and see it exit, and that CPU's switch hands it to the
	 * reaper. Read after the unlock, its state could say ZOMBIE here
	 * too, and the task would be handed over twice. (Linux's
	 * finish_task_switch reads prev's state first for the same reason.)
	 */
	bool dead = prev->state == TASK_ZOMBIE;

	arch_spin_unlock_checked(&sc->lock);
	/* prev is off this CPU for good once it is a zombie: only now may
	 * its stack be freed. */
	if (dead)
		reaper_take(prev);
}

/*
 * __schedule - switch to the next task. preempt: the running task is
 * being preempted, so it stays runnable whatever its state (it may be
 * between marking itself sleeping and testing its condition).
 */
static void __schedule(bool preempt)
{
	unsigned long flags = local_irq_save();
	struct cpu *cpu = this_cpu();
	struct sched_cpu *sc = cpu->scheduler;
	struct task *prev = sc->curr, *next;
	struct rq_entity *e;

	arch_spin_lock_checked(&sc->lock);
	update_curr(sc);
	if (!(prev->flags & TASK_IDLE)) {
		/* A killed task does not go to sleep: it must get to exit. */
		bool runnable = preempt || prev->state == TASK_RUNNING ||
				(prev->state == TASK_SLEEPING && prev->killed &&
				 !(prev->flags & TASK_SYSTEM));

		if (!runnable)
			prev->on_rq = false;
		rq_put_prev(&sc->rq, runnable ? task_key(prev) : NULL);
	}
	e = rq_pick_next(&sc->rq);
	next = e ? task_of(e) : sc->idle;
	cpu->need_resched = 0;
	if (next == prev) {
		arch_spin_unlock_checked(&sc->lock);
		local_irq_restore(flags);
		return;
	}
	check_stack(prev);
	sc->nr_switches++;
	sc->curr = next;
	sc->switch_prev = prev;
	set_current(next);
	prev->saved_preempt_count = cpu->preempt_count;
	context_switch(&prev->ctx, &next->ctx);
	/* prev runs again here - perhaps on another CPU, much later. */
	this_cpu()->preempt_count = prev->saved_preempt_count;
	sched_finish_switch();
	local_irq_restore(flags);
}

void schedule(void)
{
	struct task *task = current;

#ifdef CONFIG_DEBUG_LOCKS
	lock_debug_might_sleep("schedule");  /* names the lock held */
#endif
	if (unlikely(preempt_count() != 0 || in_interrupt()))
		panic("schedule: task %d (%s) sleeps while atomic "
		      "(preempt_count %d%s)", task ? task->pid : -1,
		      task ? task->comm : "?", preempt_count(),
		      in_interrupt() ? ", in an interrupt" : "");
	__schedule(false);
	/* Asked to reschedule again meanwhile: that is a preemption. */
	while (this_cpu()->need_resched && !irqs_disabled())
		__schedule(true);
}

_Noreturn void schedule_dead(void)
{
	local_irq_disable();
	this_cpu()->preempt_count = 0;
	current->state = TASK_ZOMBIE;
	__schedule(false);
	panic("schedule_dead: task %d ran after its last switch", current->pid);
}

void preempt_schedule(void)
{
	struct sched_cpu *sc = this_sched();

	/* Not from an interrupt (its exit preempts), nor with interrupts
	 * off (spin_unlock_irqrestore: the next interrupt exit will). */
	if (in_interrupt() || irqs_disabled() || preempt_count() != 0)
		return;
	if (!sc || !sc->ready) {
		this_cpu()->need_resched = 0;
		return;
	}
	__schedule(true);
}

/*
 * sched_irq_exit - the way out of every interrupt that did not nest, with
 * interrupts off (arch/x86_64/trap.c irq_exit_hook). A preemption point:
 * a task that was running its program (not inside a kernel service,
 * holding nothing) stops here if its cgroup is frozen, and exits here if
 * it was killed; and a task whose time is up gives way.
 */
static void sched_irq_exit(struct trap_frame *frame)
{
	struct sched_cpu *sc = this_sched();
	struct task *task;

	if (!sc || !sc->ready || preempt_count() != 0)
		return;
	task = sc->curr;
	if (task->in_kernel == 0 && !task->exiting &&
	    !(task->flags & TASK_SYSTEM)) {
		if (READ_ONCE(task->freezing) && !task->killed) {
			local_irq_enable();
			task_freeze(task);
			local_irq_disable();
		}
		if (task->killed) {
			local_irq_enable();
			task_exit();
		}
	}
	if (this_cpu()->need_resched)
		__schedule(true);
}

void set_current_state(int state)
{
	__atomic_store_n(&current->state, state, __ATOMIC_SEQ_CST);
}

/* --- waking --------------------------------------------------------------- */

/*
 * select_cpu - where a task that becomes runnable should run (interrupts
 * off): the CPU whose load stays lowest with it, its last one on a tie.
 */
static unsigned int select_cpu(void *key, int prefer)
{
	unsigned int cpu;

	if (nr_cpus < 2)
		return 0;
	cpu = rq_pick_cpu(all_rqs, nr_cpus, key, &system_domain_key, prefer,
			  &this_sched()->census);
	return sched_cpus[cpu].ready ? cpu : smp_processor_id();
}

bool wake_up_task(struct task *task)
{
	unsigned long flags = local_irq_save();
	struct sched_cpu *sc = lock_task_rq(task);
	unsigned int cpu = task->cpu;
	bool woken = false, preempt = false;

	if (task->state != TASK_SLEEPING)
		goto out;
	task->state = TASK_RUNNING;
	woken = true;
	/* Still on the run queue: it is running (about to sleep, or
	 * preempted on its way) - marking it runnable is enough. */
	if (task->on_rq)
		goto out;
	/*
	 * Off every run queue, and done switching out (this lock was held
	 * across its last switch): it may start on any CPU. Marked on_rq
	 * first, so that a wake-up meanwhile finds it runnable.
	 */
	task->on_rq = true;
	void *key = task_key(task);
	unsigned int target = select_cpu(key, (int)cpu);
	if (target != cpu) {
		task->cpu = target;
		arch_spin_unlock_checked(&sc->lock);
		sc = &sched_cpus[target];
		arch_spin_lock_checked(&sc->lock);
		cpu = target;
	}
	preempt = rq_enqueue(&sc->rq, &task->se, key);
out:
	arch_spin_unlock_checked(&sc->lock);
	if (preempt)
		resched_cpu(cpu);
	local_irq_restore(flags);
	return woken;
}

void wake_up_new_task(struct task *task)
{
	unsigned long flags = local_irq_save();
	void *key = task_key(task);
	unsigned int cpu;
	struct sched_cpu *sc;
	bool preempt;

	/* The census is read without locks: a placement on a slightly old
	 * picture is corrected by balancing. */
	cpu = select_cpu(key, -1);
	sc = &sched_cpus[cpu];
	arch_spin_lock_checked(&sc->lock);
	task->cpu = cpu;
	task->state = TASK_RUNNING;
	task->on_rq = true;
	preempt = rq_enqueue(&sc->rq, &task->se, key);
	arch_spin_unlock_checked(&sc->lock);
	if (preempt)
		resched_cpu(cpu);
	local_irq_restore(flags);
}

/* --- sleeping ------------------------------------------------------------- */

static void wake_timer_fn(struct timer *timer)
{
	wake_up_task(timer->data);
}

void schedule_timeout(uint64_t ticks)
{
	struct timer timer;

	timer_setup(&timer, wake_timer_fn, current);
	timer_add(&timer, jiffies + ticks);
	schedule();
	timer_del(&timer);
	set_current_state(TASK_RUNNING);
}

/*
 * sched_sleep_until - msleep()'s way to wait once the scheduler runs
 * (registered with time_register_sleep by sched_start): the task sleeps
 * until jiffies >= end. A killed task's sleep ends early (it is on its
 * way out). On a CPU with no run queue yet, or in an idle task, the CPU
 * halts between ticks instead.
 */
static void sched_sleep_until(uint64_t end)
{
	struct sched_cpu *sc = this_sched();

	if (!sched_running || !sc || !sc->ready ||
	    (current->flags & TASK_IDLE)) {
		time_halt_until(end);
		return;
	}
	while (jiffies < end && !current_killed()) {
		set_current_state(TASK_SLEEPING);
		schedule_timeout(end - jiffies);
	}
}

/* --- the tick and load balancing ------------------------------------------ */

/*
 * load_balance - this CPU pulls waiting tasks from the most loaded CPU
 * while that makes the loads closer (rq_balance_pick). Interrupts off.
 */
static void load_balance(struct sched_cpu *this_sc)
{
	unsigned int self = smp_processor_id(), busiest = self;
	struct rq_census *census = &this_sc->census;
	uint64_t this_load, max_load = 0, gap;
	struct sched_cpu *src;
	bool preempt = false;

	rq_census(census, all_rqs, nr_cpus, &system_domain_key);
	this_load = rq_load(&this_sc->rq, census);
	for (unsigned int i = 0; i < nr_cpus; i++) {
		uint64_t load;

		if (i == self || !sched_cpus[i].ready)
			continue;
		load = rq_load(&sched_cpus[i].rq, census);
		if (load > max_load) {
			max_load = load;
			busiest = i;
		}
	}
	if (busiest == self || max_load <= this_load)
		return;
	gap = max_load - this_load;
	src = &sched_cpus[busiest];

	/* Two run queues: lock them in CPU order. */
	if (busiest < self) {
		arch_spin_lock_checked(&src->lock);
		arch_spin_lock_checked(&this_sc->lock);
	} else {
		arch_spin_lock_checked(&this_sc->lock);
		arch_spin_lock_checked(&src->lock);
	}
	for (int moves = 0; moves < BALANCE_MOVES_MAX; moves++) {
		uint64_t weight;
		struct rq_entity *e =
			rq_balance_pick(&src->rq, census, gap, &weight);
		struct task *task;

		if (!e)
			break;
		task = task_of(e);
		rq_dequeue(&src->rq, e);
		task->cpu = self;
		preempt |= rq_enqueue(&this_sc->rq, e, task_key(task));
		this_sc->nr_pulled++;
		if (2 * weight >= gap)
			break;
		gap -= 2 * weight;
	}
	arch_spin_unlock_checked(&src->lock);
	arch_spin_unlock_checked(&this_sc->lock);
	if (preempt)
		this_cpu()->need_resched = 1;
}

/* scheduler_tick - this CPU's share of the tick: expired timers, the
 * current task's time, preemption and load balancing. */
static void scheduler_tick(void)
{
	struct sched_cpu *sc = this_sched();
	bool idle;

	if (!sc || !sc->ready)
		return;
	timer_run_expired();
	arch_spin_lock_checked(&sc->lock);
	update_curr(sc);
	if (rq_tick_preempt(&sc->rq))
		this_cpu()->need_resched = 1;
	idle = sc->curr == sc->idle;
	arch_spin_unlock_checked(&sc->lock);
	if (idle)
		sc->idle_ticks++;
	if (!sched_running || nr_cpus < 2)
		return;
	if (idle || ++sc->balance_ticks >= SCHED_BALANCE_TICKS) {
		sc->balance_ticks = 0;
		load_balance(sc);
	}
}

TICK_HOOK(scheduler_tick);

/* --- idle ----------------------------------------------------------------- */

/*
 * sched_init_cpu - this CPU's run queue, and its idle task: the context
 * that calls this (kmain's on the boot CPU, ap_main's on the others).
 */
static void sched_init_cpu(void)
{
	unsigned int id = smp_processor_id();
	struct sched_cpu *sc = &sched_cpus[id];
	struct task *idle = &idle_tasks[id];

	if (sc->ready)
		return;
	spin_lock_init(&sc->lock);
	rq_init(&sc->rq, tsc_khz * SCHED_SLICE_MS);
	all_rqs[id] = &sc->rq;
	idle->pid = 0;
	idle->flags = TASK_SYSTEM | TASK_IDLE;
	idle->state = TASK_RUNNING;
	idle->cpu = id;
	idle->on_rq = true;
	idle->refcnt = 1;
	task_set_comm(idle, "idle");
	rq_entity_init(&idle->se);
	sc->idle = idle;
	sc->curr = idle;
	sc->clock = rdtsc();
	this_cpu()->scheduler = sc;
	set_current(idle);
	__atomic_store_n(&sc->ready, true, __ATOMIC_RELEASE);
}

_Noreturn void cpu_idle_loop(void)
{
	uint64_t switches_seen = 0;
	struct cpu *cpu;

	sched_init_cpu();
	cpu = this_cpu();
	for (;;) {
		local_irq_disable();
		if (cpu->need_resched || this_sched()->rq.nr_queued) {
			local_irq_enable();
			schedule();
			continue;
		}
		if (this_sched()->nr_switches != switches_seen) {
			/* Out of work after running some (the idle task is
			 * switched away from interrupts, too): the slabs
			 * this CPU holds empty go back, once, before it
			 * sleeps (mm/slab_alloc.c). */
			switches_seen = this_sched()->nr_switches;
			local_irq_enable();
			slab_cpu_idle();
			continue;
		}
		/* sti; hlt is atomic: a wake-up IPI cannot slip between. */
		__asm__ volatile("sti\n\thlt" ::: "memory");
	}
}

/*
 * sched_stats_print - /proc/sched: one line per CPU: its runnable tasks, its
 * load as the balancer weighs it (1000 = one domain's worth), context
 * switches, tasks it pulled from other CPUs, and ticks it spent idle. A
 * line is up to ~140 bytes with 64 CPUs' counters at their widest, past
 * one 8 KiB read: so one record per line, and kernel/fs/proc.c serves the
 * file in pieces of whole lines (kernel/fs/ctlfs.h, "Long files").
 */
void sched_stats_print(const struct emitter *out)
{
	static struct rq_census census;  /* under ctl_lock: one reader */

	rq_census(&census, all_rqs, nr_cpus, &system_domain_key);
	for (unsigned int i = 0; i < nr_cpus; i++) {
		struct sched_cpu *sc = &sched_cpus[i];

		if (!emitf(out, "cpu%u tasks %u load %llu switches %llu "
			   "pulled %llu idle_ticks %llu\n", i,
			   rq_nr_tasks(&sc->rq),
			   (unsigned long long)(rq_load(&sc->rq, &census) *
						1000 / RQ_LOAD_SCALE),
			   (unsigned long long)sc->nr_switches,
			   (unsigned long long)sc->nr_pulled,
			   (unsigned long long)sc->idle_ticks))
			break;
	}
}

void sched_start(void)
{
	for (unsigned int i = 0; i < nr_cpus; i++)
		if (!all_rqs[i])
			all_rqs[i] = &sched_cpus[i].rq;  /* until it runs */
	sched_init_cpu();
	irq_exit_hook = sched_irq_exit;
	time_register_sleep(sched_sleep_until);
	__atomic_store_n(&sched_running, true, __ATOMIC_RELEASE);
}
