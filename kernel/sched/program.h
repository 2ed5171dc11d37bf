/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/program.h - built-in programs, and the kernel services they
 * call.
 *
 * A program is a function void main(struct task *self, const char *arg)
 * that a task runs (`run DOMAIN PROGRAM [ARGS]`, or fork). It counts its
 * progress in self->work (ps's WORK). When main returns, the task exits.
 *
 * Programs play the part of user code: they hold nothing the kernel would
 * have to clean up, so a task can be killed anywhere in its program - at
 * its next preemption point. What they need from the kernel they get
 * through the services below, the analogue of system calls: while a task
 * is in one (self->in_kernel), a kill waits until the service returns,
 * and a killed task exits as it returns. Whatever a program keeps across
 * services (kmemhog's pages) hangs off self->prog_data and is freed by
 * self->prog_exit when the task exits.
 */
#ifndef KERNEL_PROGRAM_H
#define KERNEL_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/sched/freezer.h"
#include "kernel/task/task.h"
#include "mm/memcg/user_memory.h"

struct program {
	const char *name;
	void (*main)(struct task *self, const char *arg);
	const char *usage;  /* "hog SIZE" */
	/* check_arg: 0 if arg is acceptable, else -EINVAL (run refuses to
	 * start the task). NULL: any argument. */
	int (*check_arg)(const char *arg);
};

/* program_find - the built-in program called name, or NULL. */
const struct program *program_find(const char *name);

/* --- entering and leaving the kernel -------------------------------------- */

_Noreturn void task_exit(void);

/* kernel_enter - the task enters a kernel service: no kill until it
 * leaves. */
static inline void kernel_enter(struct task *self)
{
	self->in_kernel++;
	/* A compiler barrier: the count is in memory before the service
	 * starts, where this CPU's timer interrupt reads it. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* kernel_leave - the service is done; a task whose cgroup was frozen
 * meanwhile stops here until the thaw, and a task killed meanwhile (or
 * while stopped) exits. */
static inline void kernel_leave(struct task *self)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);  /* the service's work first */
	self->in_kernel--;
	if (self->in_kernel != 0)
		return;
	if (READ_ONCE(self->freezing))
		task_freeze(self);
	if (READ_ONCE(self->killed))
		task_exit();
}

/* --- services (kernel/sched/program.c) ------------------------------------ */

/*
 * prog_fork - a copy of the calling task: the same program, from the
 * start, with a copy of its argument, in its domain, with a fresh 16 KiB
 * stack charged to that domain. Returns the child's PID, or -ENOMEM if
 * the stack (or the task) could not be allocated or charged.
 */
int prog_fork(struct task *self);

/* prog_sleep - sleep ms milliseconds (at least one tick). */
void prog_sleep(struct task *self, unsigned int ms);

/* prog_pause - sleep until killed. Never returns. */
_Noreturn void prog_pause(struct task *self);

/* prog_user_alloc - nr_pages of user memory (mm/memcg/user_memory.h).
 * Returns 0 or -ENOMEM. */
int prog_user_alloc(struct task *self, unsigned long nr_pages,
		    enum user_page_kind kind);

/* prog_kmem_alloc - one accounted kernel page (__GFP_KMEMCG), kept on
 * self's list and freed at exit. Returns 0 or -ENOMEM. */
int prog_kmem_alloc(struct task *self);

#endif
