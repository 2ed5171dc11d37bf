/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/sched.h - the scheduler: which task runs on each CPU, and when.
 *
 * Every CPU has its own run queue (kernel/task/runqueue.h: fair between
 * domains, round robin inside one) and its own idle task, which halts
 * when there is nothing to run. The LAPIC timer ticks HZ times a second
 * on every CPU: a task that has used its slice (SCHED_SLICE_MS) while
 * others wait is preempted when the interrupt returns, or when it next
 * re-enables preemption. New tasks go to the CPU that is least loaded
 * (by domain-weighted load); a CPU that is idle, and every CPU every few
 * ticks, pulls waiting tasks from the most loaded one.
 *
 * Locking: each run queue has a lock, taken with interrupts off. It is
 * held across the switch from one task to the next and released by the
 * next one (sched_finish_switch), so a task that another CPU can see on
 * a run queue has finished switching out. Lock order: wait-queue locks
 * and timer locks before run-queue locks; two run-queue locks in CPU
 * order.
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <stdbool.h>
#include <stdint.h>

struct task;

#define SCHED_SLICE_MS 4     /* a task's time slice */
#define SCHED_BALANCE_TICKS 4  /* a busy CPU balances this often */

/* sched_running - set by sched_start: from then on tasks can be switched,
 * can sleep and be woken. */
extern bool sched_running;

/*
 * sched_start - on the boot CPU, in kmain's context, which becomes this
 * CPU's idle task: set up the run queues and take the timer's interrupt
 * exit for preemption. The task table must be ready (task_table_init);
 * what comes next - the reaper, the console's wait queue, the shell,
 * cpu_idle_loop() - is the caller's, in start_kernel_services()
 * (kernel/init/boot_tasks.c), which holds the start-up order.
 */
void sched_start(void);

/* cpu_idle_loop - what a CPU does when it has nothing else: its run queue
 * and idle task are set up on the first call, then it runs tasks as they
 * come and halts between them. kmain hands it to the other CPUs
 * (smp_boot) and start_kernel_services() ends in it. Never returns. */
_Noreturn void cpu_idle_loop(void);

/* sched_stats_print - the lines of /proc/sched, one record each (kernel/fs/
 * proc.c makes the file). */
struct emitter;
void sched_stats_print(const struct emitter *out);

/* schedule - give up the CPU: to sleep (current->state TASK_SLEEPING,
 * set by the caller), or to let others run. Task context, no spinlock
 * held (it panics otherwise: sleeping while atomic). */
void schedule(void);

/* schedule_dead - the last switch of an exiting task (kernel/sched/exit.c). */
_Noreturn void schedule_dead(void);

/* schedule_timeout - sleep until woken or ticks have passed. The caller
 * has set current->state to TASK_SLEEPING (and may be on wait queues). */
void schedule_timeout(uint64_t ticks);

/*
 * wake_up_task - make a sleeping task runnable again (on its last CPU).
 * Any context. Returns false if it was not sleeping (it was running, or
 * had exited).
 */
bool wake_up_task(struct task *task);

/* wake_up_new_task - start a TASK_NEW task, on the least loaded CPU. */
void wake_up_new_task(struct task *task);

/* sched_finish_switch - the first thing a task does after it is switched
 * to (a new task, from task_entry). */
void sched_finish_switch(void);

/* set_current_state - the current task's state, with a full barrier, as
 * Linux's set_current_state. */
void set_current_state(int state);

/*
 * sched_cpu_times - where the time of the CPU that task is on (or last ran
 * on) went, in TSC cycles since boot, as of the last time the scheduler
 * counted it there: its clock, the task's own runtime (on every CPU it
 * ran on), the CPU's idle time, and the time system tasks (the shell, the
 * reaper, ...) ran there. The rest of that CPU's time went to the tasks
 * of user domains other than task. Interrupts are counted to the task
 * they interrupted (as Linux without IRQ_TIME_ACCOUNTING). For the
 * fork-bomb demonstration's fair-share figure (kernel/programs/demo.c).
 */
struct sched_cpu_times {
	unsigned int cpu;
	uint64_t clock, task, idle, system;
};
void sched_cpu_times(struct task *task, struct sched_cpu_times *times);

/* set_current - what current (gs:16, kernel/base/platform.h) returns on this
 * CPU from now on. */
static inline void set_current(struct task *task)
{
	__asm__ volatile("movq %0, %%gs:16" : : "r"(task) : "memory");
}

#endif
