/* SPDX-License-Identifier: MIT */
/*
 * kernel/task/task.h - a task: a thread of kernel execution running a built-in
 * program, with its own 16 KiB kernel stack, in exactly one domain.
 *
 * Life of a task (kernel/sched/fork.c, kernel/sched/exit.c,
 * kernel/sched/sched.c):
 *
 *   TASK_NEW       made by fork or `run`, not yet on a run queue
 *   TASK_RUNNING   runnable: running on a CPU or waiting on its run queue
 *   TASK_SLEEPING  on a wait queue (or in msleep) until woken - or killed
 *   TASK_ZOMBIE    exited; its stack is freed by the reaper once the task
 *                  has switched away for the last time, and the task
 *                  itself when it is reaped: by `wait`, or - for a task
 *                  nobody will wait for - by the reaper, or by whoever
 *                  says so after the reaper has passed it (REAP_*)
 *
 * References (task->refcnt): the PID table holds one until the task is
 * reaped, the task holds one on itself until the reaper has freed its
 * stack, and task_get() takes one. The last task_put() frees the struct.
 */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include "kernel/base/list.h"
#include "kernel/base/platform.h"
#include "kernel/task/runqueue.h"

#define THREAD_ORDER 2
#define THREAD_SIZE (4096ul << THREAD_ORDER)  /* 16 KiB */

/* task->flags */
#define TASK_SYSTEM (1u << 0)  /* shell, idle, workers: never charged */
#define TASK_IDLE   (1u << 1)  /* a CPU's idle task: on no run queue */

/*
 * task->reap_state: who reaps a task that has exited (kernel/sched/exit.c).
 * Each bit is set once, by an atomic OR that returns the bits before:
 * whichever of the two is set second sees the first, and reaps - so the
 * task is reaped exactly once, in whatever order its death and the end
 * of its waiters come.
 */
#define REAP_UNWAITED    (1u << 0)  /* nobody will `wait` for it */
#define REAP_STACK_FREED (1u << 1)  /* dead; the reaper freed its stack */

enum task_state {
	TASK_NEW,
	TASK_RUNNING,
	TASK_SLEEPING,
	TASK_ZOMBIE,
};

#define TASK_COMM_MAX 16   /* program name, with its NUL */
#define TASK_ARG_MAX 128   /* program argument, with its NUL */

struct mem_cgroup;
struct page;
struct pids_cgroup;
struct program;

/*
 * cpu_context - what arch/x86_64/switch.S saves of a task that is not
 * running: its FPU/SSE registers (fxsave needs 512 bytes, 16-byte
 * aligned) and its stack pointer; the other registers are on the stack.
 */
struct cpu_context {
	uint8_t fxsave[512] __attribute__((aligned(16)));
	uint64_t rsp;
};

struct task {
	struct cpu_context ctx;       /* first: keeps it 16-byte aligned */
	int pid;
	unsigned int flags;
	struct mem_cgroup *memcg;     /* the domain this task is in */
	struct list_head memcg_node;  /* on memcg->tasks */
	/* User memory (mm/memcg/user_memory.c), under user_memory_lock; set
	 * up by mem_cgroup_attach_task / mem_cgroup_fork_task. */
	struct list_head user_rss;    /* its rss pages, linked by page->lru */
	struct list_head user_cache;  /* its cache pages (reclaimable) */
	struct list_head user_node;   /* on user_memory_tasks if it has any */
	unsigned long user_pages;     /* rss + cache pages it holds */

	/* The program (kernel/sched/program.h). */
	const struct program *prog;
	char comm[TASK_COMM_MAX];     /* its name, for ps */
	char arg[TASK_ARG_MAX];       /* a copy of its argument */
	volatile uint64_t work;       /* its progress: ps's WORK */
	void *prog_data;              /* the program's own, freed by ... */
	void (*prog_exit)(struct task *self);  /* ... this, at exit */

	/* Life and death (kernel/sched/task_table.c, fork.c, exit.c). */
	int refcnt;                   /* atomic */
	volatile int state;           /* enum task_state */
	volatile bool killed;         /* task_kill(): exit at the next chance */
	volatile bool exiting;        /* in task_exit(), or past it */
	unsigned char reap_state;     /* REAP_* bits, atomic */
	bool reaped;                  /* out of the PID table */
	int in_kernel;                /* > 0: in a kernel service (a kill
				       * waits until it returns) */
	/* Called by the reaper once it has reaped an unwaited task, if set
	 * (a job's end, for the shell: kernel/sched/fork.h task_spawn_job). */
	void (*on_reap)(void *data, int pid, bool killed);
	void *on_reap_data;
	uint64_t birth;               /* order of creation: a count that
				       * never wraps (the OOM tie-break) */
	/* The pids domain this task is counted in, from its fork until it
	 * is reaped - zombies count (kernel/cgroup/pids.c); NULL: in the
	 * root, which counts nobody. */
	struct pids_cgroup *pids;
	struct page *stack;           /* its kernel stack, THREAD_SIZE */
	struct list_head pid_node;    /* in the PID table's hash chain */
	struct list_head all_node;    /* on the list of all tasks, for ps */
	struct list_head dead_node;   /* on the reaper's list, once dead */

	/* The scheduler (kernel/sched/sched.c), under the run queue's lock. */
	struct rq_entity se;
	unsigned int cpu;             /* its run queue (or last one) */
	bool on_rq;                   /* runnable: queued or running */
	/* The freezer (kernel/sched/freezer.c), in the hole before an int:
	 * its cgroup is frozen, so it stops at its next chance; and it is
	 * stopped, asleep in the freezer. */
	volatile bool freezing;
	volatile bool frozen;
	int saved_preempt_count;      /* the CPU's count while switched out */
	/* /proc/PID/oom_score_adj, -1000..1000: moves the v2 OOM killer's
	 * score (mm/memcg/memcg_v2.c; -1000: never chosen); inherited
	 * at fork. Here, in the hole before a 64-bit field. */
	int oom_score_adj;
	uint64_t runtime;             /* TSC cycles it has run */

	/* Set: kernel allocations of this task are charged to this domain
	 * instead of its own (set_active_memcg, mm/memcg_hooks.h). */
	struct mem_cgroup *active_memcg;
	/* Who pays for its kernel allocations: active_memcg if set, else
	 * memcg, kept so under memcg_tree_lock wherever either is written
	 * (task_update_payer, mm/memcg/memcontrol.c); read lock-free by
	 * memcg_kmem_payer (mm/memcg_hooks.h). */
	struct mem_cgroup *kmem_payer;
};

/*
 * A struct task comes from a cache aligned to 64-byte lines: at 960 bytes
 * four fit in one 4 KiB slab page, and a fork is charged a quarter page for
 * it. At 961 only three would fit, and every figure of the kmem demo (481
 * tasks under 8M) would change: a new field must fill a hole.
 */
_Static_assert(sizeof(struct task) <= 960,
	       "struct task must stay within 960 bytes: 4 per slab page");

#endif
