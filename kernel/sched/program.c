// SPDX-License-Identifier: MIT
/*
 * kernel/sched/program.c - the kernel services programs call (see
 * kernel/sched/program.h): each one is bracketed by kernel_enter/kernel_leave,
 * so that a kill never interrupts one half done, and takes effect as it
 * returns.
 */
#include "kernel/sched/program.h"

#include <errno.h>

#include "kernel/sched/fork.h"
#include "kernel/time/time.h"
#include "kernel/sched/wait.h"
#include "mm/buddy.h"

/* Nobody wakes it: prog_pause sleeps here until killed. */
static DECLARE_WAIT_QUEUE_HEAD(pause_wq);

int prog_fork(struct task *self)
{
	int ret;

	kernel_enter(self);
	ret = task_fork(self);
	kernel_leave(self);
	return ret;
}

void prog_sleep(struct task *self, unsigned int ms)
{
	kernel_enter(self);
	msleep(ms ? ms : 1);
	kernel_leave(self);
}

_Noreturn void prog_pause(struct task *self)
{
	for (;;) {
		kernel_enter(self);
		wait_event_killable(&pause_wq, false);
		kernel_leave(self);  /* killed: does not return */
	}
}

int prog_user_alloc(struct task *self, unsigned long nr_pages,
		    enum user_page_kind kind)
{
	int ret;

	kernel_enter(self);
	ret = user_memory_alloc(nr_pages, kind);
	kernel_leave(self);
	return ret;
}

/* kmem_pages_free - at exit: the pages prog_kmem_alloc gave, linked
 * through their first word. */
static void kmem_pages_free(struct task *self)
{
	void *p = self->prog_data;

	while (p) {
		void *next = *(void **)p;

		free_accounted_pages(virt_to_page(p), 0);
		p = next;
	}
	self->prog_data = NULL;
}

int prog_kmem_alloc(struct task *self)
{
	struct page *page;
	void *p;

	kernel_enter(self);
	page = alloc_pages(GFP_ACCOUNT | __GFP_NOWARN, 0);
	if (page) {
		p = page_address(page);
		*(void **)p = self->prog_data;
		self->prog_data = p;
		self->prog_exit = kmem_pages_free;
	}
	kernel_leave(self);
	return page ? 0 : -ENOMEM;
}
