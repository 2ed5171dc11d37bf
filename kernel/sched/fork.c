// SPDX-License-Identifier: MIT
/*
 * kernel/sched/fork.c - making tasks (see kernel/sched/fork.h).
 *
 * task_create() does the part every new task shares, in this order, and
 * undoes it in the reverse order on failure (xv6's fork):
 *
 *   1. the kernel stack: alloc_pages(THREADINFO_GFP_ACCOUNTED, order 2),
 *      charged to the domain (res, then kmem) - refused at its limit
 *   2. the struct task, from the task_struct slab cache (SLAB_ACCOUNT:
 *      from the domain's child cache, "task_struct(A)", whose slab pages
 *      are charged to the domain - refused at its limit too)
 *   3. the first stack frame: task_start, then task_entry()
 *   4. a PID and a place in the task table
 *   5. the domain: mem_cgroup_fork_task / mem_cgroup_attach_task
 *
 * then wake_up_new_task() puts it on the least loaded CPU (start(): the
 * PID is read first - a woken task may be gone at once).
 *
 * Counting. Before step 1, the pids controller (kernel/cgroup/pids.c,
 * through struct cgroup_fork_ops) counts the task in its domain and every
 * ancestor; a domain at its pids.max refuses the fork with EAGAIN before
 * anything is allocated. Linux counts after allocating the stack and the
 * rest (cgroup_can_fork, late in copy_process); tally counts first so that
 * a refused fork costs nothing: no stack is charged and given back, the
 * kmem counters and failcnt see only forks that pids.max let through, and
 * under both limits the refusal is always the same one (EAGAIN, not
 * sometimes ENOMEM). The count goes when the task is reaped.
 *
 * Charging. The kmem hooks charge the domain of the current task. For
 * fork that is the parent's domain, where the child goes. For `run` the
 * current task is the shell, a system task, never charged: the shell
 * makes the target domain its active one for the two allocations (stack
 * and struct task), as Linux does with set_active_memcg()
 * (mm/memcg/kmem_hooks.h).
 */
#include "kernel/sched/fork.h"

#include <errno.h>
#include <string.h>

#include "arch/x86_64/asm/cpu.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/freezer.h"
#include "kernel/sched/program.h"
#include "kernel/sched/sched.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "kernel/sched/task_trace.h"
#include "kernel/sched/task_table.h"
#include "mm/buddy.h"
#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcontrol.h"

extern void task_start(void);  /* arch/x86_64/switch.S */

/* The pids controller's hooks (kernel/cgroup/pids.c), once registered. */
static const struct cgroup_fork_ops *cgroup_ops;

void cgroup_fork_register(const struct cgroup_fork_ops *ops)
{
	cgroup_ops = ops;
}

static int cgroup_can_fork(struct task *parent, struct mem_cgroup *memcg,
			   struct pids_cgroup **charge)
{
	*charge = NULL;
	return cgroup_ops ? cgroup_ops->can_fork(parent, memcg, charge) : 0;
}

static void cgroup_cancel_fork(struct pids_cgroup *charge)
{
	if (cgroup_ops && charge)
		cgroup_ops->cancel_fork(charge);
}

static void cgroup_post_fork(struct task *child)
{
	if (cgroup_ops)
		cgroup_ops->post_fork(child);
}

void cgroup_fork_release(struct task *task)
{
	if (cgroup_ops)
		cgroup_ops->release(task);
}

/* Tasks made so far: each new task's birth (kernel/task/task.h). */
static uint64_t task_births;

/* The FPU state a task starts with: what fninit and a reset leave (x87
 * control word 0x37f, all exceptions masked in MXCSR 0x1f80). */
static uint8_t fpu_init_state[512] __attribute__((aligned(16)));

static void fpu_init_state_build(void)
{
	uint16_t fcw = 0x037f;
	uint32_t mxcsr = 0x1f80;

	memset(fpu_init_state, 0, sizeof(fpu_init_state));
	memcpy(&fpu_init_state[0], &fcw, sizeof(fcw));
	memcpy(&fpu_init_state[24], &mxcsr, sizeof(mxcsr));
}

/*
 * task_entry - where a new task starts (from task_start, switch.S): finish
 * the switch that brought it here, enable interrupts, run its program,
 * exit. A task killed before it first ran exits at once.
 */
void task_entry(void)
{
	struct task *self = current;

	this_cpu()->preempt_count = 0;
	sched_finish_switch();
	local_irq_enable();
	if (!READ_ONCE(self->killed)) {
		self->in_kernel = 0;
		/* Born into a frozen cgroup: the program waits for the
		 * thaw. */
		if (READ_ONCE(self->freezing))
			task_freeze(self);
		if (!READ_ONCE(self->killed))
			self->prog->main(self, self->arg);
	}
	task_exit();
}

/* init_stack - the frame context_switch pops into a new task: six zeroed
 * callee-saved registers, then the return address task_start. rsp is
 * then 16-byte aligned at task_start, as after a call's return. */
static void init_stack(struct task *task)
{
	uint64_t *sp = (uint64_t *)((char *)page_address(task->stack) +
				    THREAD_SIZE);

	*--sp = (uint64_t)task_start;
	for (int i = 0; i < 6; i++)
		*--sp = 0;  /* rbp, rbx, r12-r15 */
	task->ctx.rsp = (uint64_t)sp;
	if (!fpu_init_state[0])
		fpu_init_state_build();
	memcpy(task->ctx.fxsave, fpu_init_state, sizeof(task->ctx.fxsave));
	task_stack_set_magic(task);
}

/*
 * task_init - fill in a new task's fields and its first frame (step 3):
 * nothing here can fail, and nothing here is charged.
 */
static void task_init(struct task *task, struct page *stack,
		      const struct program *prog, const char *arg,
		      unsigned int flags, struct pids_cgroup *charge)
{
	task->stack = stack;
	task->pids = charge;  /* before its PID makes it visible */
	task->flags = flags;
	task->prog = prog;
	task_set_comm(task, prog->name);
	strncpy(task->arg, arg ? arg : "", sizeof(task->arg) - 1);
	task->state = TASK_NEW;
	task->in_kernel = 1;  /* until task_entry runs the program */
	task->refcnt = 1;     /* its own, until the reaper frees its stack */
	task->cpu = smp_processor_id();
	task->birth = __atomic_add_fetch(&task_births, 1, __ATOMIC_RELAXED);
	INIT_LIST_HEAD(&task->memcg_node);
	INIT_LIST_HEAD(&task->pid_node);
	INIT_LIST_HEAD(&task->all_node);
	INIT_LIST_HEAD(&task->dead_node);
	rq_entity_init(&task->se);
	init_stack(task);
}

/*
 * task_create - steps 1-4 of the list above; the task holds charge, the
 * pids count taken for it (NULL: none). Returns 0 with *out set, or
 * -ENOMEM having undone everything but that count (the caller's).
 */
static int task_create(const struct program *prog, const char *arg,
		       unsigned int flags, struct pids_cgroup *charge,
		       struct task **out)
{
	struct page *stack;
	struct task *task;

	/* 1. The stack, charged before anything else exists. */
	stack = alloc_pages(THREADINFO_GFP_ACCOUNTED | __GFP_NOWARN,
			    THREAD_ORDER);
	if (!stack)
		return -ENOMEM;
	memcg_account_kernel_stack(stack, +1);

	/*
	 * 2. The task itself, charged too: the task_struct cache is accounted,
	 * so the object comes from the domain's own child cache
	 * (mm/memcg/memcg_slab.h). Its slab pages hold only this domain's
	 * tasks, so they are the domain's to pay for, and go back - uncharging
	 * it - when its last task struct is freed; no other domain's objects
	 * can keep them (or a removed domain) alive.
	 */
	task = task_alloc(GFP_ACCOUNT | __GFP_NOWARN);
	if (!task)
		goto undo_stack;

	/* 3. Its fields and first frame. */
	task_init(task, stack, prog, arg, flags, charge);

	/* 4. A PID. */
	if (task_hash(task) < 0)
		goto undo_task;
	*out = task;
	return 0;

undo_task:
	task_free(task);
undo_stack:
	memcg_account_kernel_stack(stack, -1);
	free_accounted_pages(stack, THREAD_ORDER);
	return -ENOMEM;
}

/*
 * task_discard - undo task_create for a task that never ran (its domain
 * refused it): out of the table, stack and struct freed.
 */
static void task_discard(struct task *task)
{
	memcg_account_kernel_stack(task->stack, -1);
	free_accounted_pages(task->stack, THREAD_ORDER);
	task->stack = NULL;
	task_release(task);  /* the table's reference */
	task_put(task);      /* its own: frees it */
}

/*
 * start - put a new task on a run queue, and return its PID.
 *
 * The PID is read before the task is woken: from then on the task is no
 * longer ours. It may run on another CPU at once, be killed at birth (a
 * cgroup.kill during a fork bomb), exit, and - being reaped by the reaper,
 * or by the shell's job handling - be freed before wake_up_new_task() has
 * even returned here. Nothing after the wake-up may touch it.
 */
static int start(struct task *task)
{
	int pid = task->pid;

	wake_up_new_task(task);
	return pid;
}

int task_fork(struct task *parent)
{
	struct pids_cgroup *charge;
	struct task *child;
	int ret;

	memcg_v2_throttle();  /* above memory.high: pay for it first */
	ret = cgroup_can_fork(parent, NULL, &charge);
	if (ret == 0)
		ret = task_create(parent->prog, parent->arg, 0, charge,
				  &child);
	trace_task_fork_refused(parent->memcg, ret);
	if (ret < 0) {
		cgroup_cancel_fork(charge);
		return ret;
	}
	child->reap_state = REAP_UNWAITED;  /* nobody waits for a child */
	child->oom_score_adj = parent->oom_score_adj;
	mem_cgroup_fork_task(parent, child);  /* 5. never fails */
	cgroup_post_fork(child);
	return start(child);
}

/* spawn - task_spawn and task_spawn_job: on_reap NULL for the former. */
static int spawn(struct mem_cgroup *memcg, const struct program *prog,
		 const char *arg,
		 void (*on_reap)(void *data, int pid, bool killed), void *data)
{
	struct pids_cgroup *charge;
	struct mem_cgroup *old;
	struct task *task;
	int ret;

	/* The caller (`run`) holds a reference on memcg. */
	ret = cgroup_can_fork(NULL, memcg, &charge);
	if (ret == 0) {
		old = set_active_memcg(memcg);
		ret = task_create(prog, arg, 0, charge, &task);
		set_active_memcg(old);
	}
	trace_task_fork_refused(memcg, ret);
	if (ret < 0) {
		cgroup_cancel_fork(charge);
		return ret;
	}
	if (on_reap) {
		task->reap_state = REAP_UNWAITED;
		task->on_reap = on_reap;
		task->on_reap_data = data;
	}
	ret = mem_cgroup_attach_task(memcg, task);  /* 5. */
	if (ret < 0) {
		task_discard(task);
		return ret;
	}
	cgroup_post_fork(task);
	return start(task);
}

int task_spawn(struct mem_cgroup *memcg, const struct program *prog,
	       const char *arg)
{
	return spawn(memcg, prog, arg, NULL, NULL);
}

int task_spawn_job(struct mem_cgroup *memcg, const struct program *prog,
		   const char *arg,
		   void (*on_reap)(void *data, int pid, bool killed),
		   void *data)
{
	return spawn(memcg, prog, arg, on_reap, data);
}

int task_spawn_system(const struct program *prog, const char *arg)
{
	struct task *task;
	int ret;

	ret = task_create(prog, arg, TASK_SYSTEM, NULL, &task);
	if (ret < 0)
		return ret;
	task->reap_state = REAP_UNWAITED;
	mem_cgroup_attach_task(root_mem_cgroup, task);
	return start(task);
}
