// SPDX-License-Identifier: MIT
/*
 * kernel/ktest/ktest_sched.c - in-kernel tests of tasks and the scheduler:
 * fork, exit and reaping of many tasks, fork's ENOMEM and its roll-back,
 * kill of a task asleep and of one running, reaping of a zombie nobody
 * will wait for any more (killed, or its waiter killed), wait queues,
 * sleeping, and preemption (a task that never sleeps does not starve the
 * others on its CPU). Then the cost of fork + exit + reap, in TSC cycles:
 *
 *   # fork_exit median_cycles=N p99_cycles=N ops=N
 *
 * The tasks are made as `run` makes them, in the root domain (charged to
 * nobody) unless a test makes a domain of its own; each test waits for
 * all its tasks to be reaped, so that MemFree comes back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/bench/bench_fork.h"
#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/fork.h"
#include "kernel/ktest/ktest.h"
#include "kernel/lib/memparse.h"
#include "kernel/base/platform.h"
#include "kernel/sched/program.h"
#include "kernel/sched/sched.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "kernel/sched/task_table.h"
#include "kernel/time/time.h"
#include "kernel/sched/wait.h"
#include "mm/buddy.h"
#include "mm/memcg/memcontrol.h"
#include "mm/slab.h"

/* start - a task running prog in the root domain; its PID (> 0). */
static int start(struct ktest *t, const struct program *prog, const char *arg)
{
	int pid = task_spawn(root_mem_cgroup, prog, arg);

	KTEST_EXPECT(t, pid > 0, "task_spawn makes a task");
	return pid;
}

/* poll - wait up to ms for cond(task) to hold; false if it never did. */
static bool poll(struct task *task, bool (*cond)(struct task *), int ms)
{
	for (int i = 0; i < ms; i++) {
		if (cond(task))
			return true;
		msleep(1);
	}
	return cond(task);
}

static bool is_sleeping(struct task *task)
{
	return READ_ONCE(task->state) == TASK_SLEEPING;
}

static bool is_zombie(struct task *task)
{
	return READ_ONCE(task->state) == TASK_ZOMBIE;
}

static bool has_worked(struct task *task)
{
	return READ_ONCE(task->work) > 0;
}

/* quiet_tasks - wait (up to a few seconds) until only `baseline` tasks
 * are in the table: the reaper has caught up. */
static bool quiet_tasks(unsigned int baseline)
{
	for (int i = 0; i < 5000 && nr_tasks() > baseline; i++)
		msleep(1);
	return nr_tasks() <= baseline;
}

/* --- fork, exit, reap ----------------------------------------------------- */

#define FORK_MANY 300

/*
 * The forking tests start one parent task whose children run the same
 * program with the same argument: the first task to run it is the
 * parent (it runs before any child exists), and claims parent_claimed.
 */
static int parent_claimed;

static bool is_parent(void)
{
	return !__atomic_exchange_n(&parent_claimed, 1, __ATOMIC_SEQ_CST);
}

/* start_parent - spawn prog in memcg as the parent of a forking test. */
static int start_parent(struct mem_cgroup *memcg, const struct program *prog)
{
	__atomic_store_n(&parent_claimed, 0, __ATOMIC_SEQ_CST);
	return task_spawn(memcg, prog, "");
}

/* The parent forks FORK_MANY children; each child finds it is not the
 * parent and exits at once. */
static void forker_main(struct task *self, const char *arg)
{
	if (!is_parent())
		return;
	for (int i = 0; i < FORK_MANY; i++)
		if (prog_fork(self) > 0)
			self->work++;
}

static const struct program forker = {"kt_forker", forker_main, NULL, NULL};

static void ktest_sched_fork_exit_many(struct ktest *t)
{
	unsigned int tasks0 = nr_tasks();
	unsigned long free0 = nr_free_pages();
	struct task *task;
	int pid;

	pid = start_parent(root_mem_cgroup, &forker);
	KTEST_EXPECT(t, pid > 0, "the forker starts");
	task = task_get(pid);
	KTEST_EXPECT(t, task != NULL, "task_get finds it");
	KTEST_EXPECT(t, task_wait(pid) == 0, "wait reaps the forker");
	KTEST_EXPECT(t, task && task->work == FORK_MANY,
		     "every fork succeeded");
	if (task)
		task_put(task);
	KTEST_EXPECT(t, quiet_tasks(tasks0), "every child is reaped");
	KTEST_EXPECT(t, task_get(pid) == NULL, "a reaped PID is gone");
	/* Slabs may keep an empty page or two; stacks all come back. */
	KTEST_EXPECT(t, nr_free_pages() + 16 >= free0,
		     "free pages back after fork, exit and reap");
}
KTEST(sched_fork_exit_many);

/* In a domain whose kmem limit holds a few stacks, fork fails with ENOMEM
 * - and does not "work" past the limit (xv6's forktest) - and everything
 * it took comes back. */
#define FORK_LIMIT_KB 256
static volatile int fork_enomem_seen;

static void limited_forker_main(struct task *self, const char *arg)
{
	if (!is_parent())
		prog_pause(self);  /* children wait to be killed */
	for (int i = 0; i < 1000; i++) {
		int ret = prog_fork(self);

		if (ret == -ENOMEM) {
			fork_enomem_seen = 1;
			return;
		}
		if (ret > 0)
			self->work++;
	}
}

static const struct program limited_forker = {"kt_limited",
					      limited_forker_main, NULL, NULL};

/* limited_domain - mkdir dir with a kmem limit, so that its tasks are
 * charged to it; the domain, with a reference, or NULL. */
static struct mem_cgroup *limited_domain(struct ktest *t, const char *dir,
					 const char *limit)
{
	char path[CTL_PATH_MAX], why[CTL_WHY_MAX];
	struct mem_cgroup *memcg;

	KTEST_EXPECT(t, ctl_mkdir(dir, why) == 0, "mkdir a domain");
	snprintf(path, sizeof(path), "%s/memory.kmem.limit_in_bytes", dir);
	KTEST_EXPECT(t, ctl_write(path, limit, why) == 0, "set a kmem limit");
	if (cgroupfs_get_domain(dir, &memcg) < 0) {
		KTEST_EXPECT(t, false, "find the domain");
		return NULL;
	}
	return memcg;
}

static void ktest_sched_fork_enomem(struct ktest *t)
{
	static const char dir[] = "/cgroup/ktest_fork";
	unsigned int tasks0 = nr_tasks();
	struct mem_cgroup *memcg = NULL;
	char why[CTL_WHY_MAX], buf[64];
	struct task *task;
	int pid;

	memcg = limited_domain(t, dir, "256K");
	if (!memcg)
		return;
	fork_enomem_seen = 0;
	pid = start_parent(memcg, &limited_forker);
	KTEST_EXPECT(t, pid > 0, "the forker starts in the domain");
	task = pid > 0 ? task_get(pid) : NULL;
	KTEST_EXPECT(t, pid > 0 && task_wait(pid) == 0, "it ends");
	KTEST_EXPECT(t, fork_enomem_seen,
		     "fork failed with ENOMEM at the limit");
	KTEST_EXPECT(t, task && task->work > 0 &&
			task->work < FORK_LIMIT_KB / 16,
		     "fork succeeded a few times, never past the limit");
	if (task)
		task_put(task);
	KTEST_EXPECT(t, ctl_read("/cgroup/ktest_fork/memory.kmem.failcnt", buf,
				 sizeof(buf), why) > 0 && atoi(buf) > 0,
		     "the kmem counter counted the refusal");
	mem_cgroup_kill_tasks(memcg);
	KTEST_EXPECT(t, quiet_tasks(tasks0),
		     "the children are killed and reaped");
	KTEST_EXPECT(t,
		     ctl_read("/cgroup/ktest_fork/memory.kmem.usage_in_bytes",
			      buf, sizeof(buf), why) > 0,
		     "read kmem usage");
	KTEST_EXPECT(t, READ_ONCE(memcg->nr_kernel_stack) == 0,
		     "every stack uncharged");
	mem_cgroup_put(memcg);
	KTEST_EXPECT(t, ctl_rmdir(dir, why) == 0, "rmdir the domain");
}
KTEST(sched_fork_enomem);

/* --- kill ----------------------------------------------------------------- */

static void sleeper_main(struct task *self, const char *arg)
{
	prog_pause(self);
}

static const struct program sleeper = {"kt_sleeper", sleeper_main, NULL, NULL};

static void ktest_sched_kill_sleeping(struct ktest *t)
{
	int pid = start(t, &sleeper, "");
	struct task *task = pid > 0 ? task_get(pid) : NULL;

	if (!task)
		return;
	KTEST_EXPECT(t, poll(task, is_sleeping, 2000), "it goes to sleep");
	task_kill_user(task);
	KTEST_EXPECT(t, task_kill_pending(task), "the kill is pending");
	KTEST_EXPECT(t, poll(task, is_zombie, 2000), "woken, it exits");
	KTEST_EXPECT(t, task_wait(pid) == 0, "wait reaps it");
	KTEST_EXPECT(t, task->stack == NULL, "its stack is freed");
	task_put(task);
}
KTEST(sched_kill_sleeping);

/* spinner - never sleeps, never calls the kernel: only preemption stops it. */
static void spinner_main(struct task *self, const char *arg)
{
	for (;;)
		self->work++;
}

static const struct program spinner = {"kt_spinner", spinner_main, NULL, NULL};

static void ktest_sched_kill_running(struct ktest *t)
{
	int pid = start(t, &spinner, "");
	struct task *task = pid > 0 ? task_get(pid) : NULL;

	if (!task)
		return;
	KTEST_EXPECT(t, poll(task, has_worked, 2000), "it runs");
	task_kill_user(task);
	KTEST_EXPECT(t, poll(task, is_zombie, 2000),
		     "it exits at its next preemption point");
	if (is_zombie(task))
		KTEST_EXPECT(t, task_wait(pid) == 0, "wait reaps it");
	task_put(task);
}
KTEST(sched_kill_running);

/* A task killed before it first runs never runs its program. */
static void ktest_sched_kill_new(struct ktest *t)
{
	struct task *task;
	int pid;

	preempt_disable();  /* on this CPU the new task cannot start yet */
	pid = task_spawn(root_mem_cgroup, &spinner, "");
	task = pid > 0 ? task_get(pid) : NULL;
	if (task)
		task_kill_user(task);
	preempt_enable();
	KTEST_EXPECT(t, task != NULL, "spawned");
	if (!task)
		return;
	KTEST_EXPECT(t, task_wait(pid) == 0, "it exits");
	/* (On another CPU it may have run a moment before the kill.) */
	task_put(task);
}
KTEST(sched_kill_new);

/* --- reaping a task nobody waits for any more ----------------------------- */

static void quitter_main(struct task *self, const char *arg)
{
}

static const struct program quitter = {"kt_quitter", quitter_main, NULL,
				       NULL};

/* passed_by_reaper - dead, its stack freed, and left in the table for a
 * `wait` (the reaper has made its decision: not to reap it). */
static bool passed_by_reaper(struct task *task)
{
	return __atomic_load_n(&task->reap_state, __ATOMIC_ACQUIRE) &
	       REAP_STACK_FREED;
}

static bool is_reaped(struct task *task)
{
	return READ_ONCE(task->reaped);
}

/* in_table - is there a task with this PID (as ps would show it)? */
static bool in_table(int pid)
{
	struct task *task = task_get(pid);

	if (task)
		task_put(task);
	return task != NULL;
}

/* no_more_dying - wait (up to a few seconds) until no more domains than
 * `baseline` are removed but pinned. */
static bool no_more_dying(unsigned long baseline)
{
	for (int i = 0; i < 5000 && mem_cgroup_nr_dying() > baseline; i++)
		msleep(1);
	return mem_cgroup_nr_dying() <= baseline;
}

/*
 * A task that exits by itself is left by the reaper for a `wait`; then it
 * is killed by PID (as a killed stress worker kills its children):
 * nobody will wait for it now. The kill reaps it - no zombie is left, and
 * its removed domain, pinned by the zombie's struct task, is freed.
 */
static void ktest_sched_kill_after_reaper(struct ktest *t)
{
	static const char dir[] = "/cgroup/ktest_reap";
	unsigned long dying0 = mem_cgroup_nr_dying();
	struct mem_cgroup *memcg;
	char why[CTL_WHY_MAX];
	struct task *task;
	int pid;

	memcg = limited_domain(t, dir, "16M");
	if (!memcg)
		return;
	pid = task_spawn(memcg, &quitter, "");
	mem_cgroup_put(memcg);
	task = pid > 0 ? task_get(pid) : NULL;
	KTEST_EXPECT(t, task != NULL, "the task starts in the domain");
	if (!task)
		return;
	KTEST_EXPECT(t, poll(task, passed_by_reaper, 2000),
		     "it exits; the reaper frees its stack, keeps the zombie");
	KTEST_EXPECT(t, is_zombie(task) && in_table(pid),
		     "a zombie, in the table for a wait");
	KTEST_EXPECT(t, ctl_rmdir(dir, why) == 0,
		     "rmdir its domain (zombies only)");
	task_kill(task);
	KTEST_EXPECT(t, is_reaped(task),
		     "killed once passed by the reaper, it is reaped");
	task_put(task);
	KTEST_EXPECT(t, !in_table(pid), "no zombie left in the table");
	KTEST_EXPECT(t, no_more_dying(dying0),
		     "its domain is freed, not left dying");
	if (in_table(pid))
		task_wait(pid);  /* left: reap it for the tests after this */
}
KTEST(sched_kill_after_reaper);

/* kt_waiter_of: `wait PID` on the PID in its argument; the answer in
 * waiter_of_ret. */
static volatile int waiter_of_ret;

static void waiter_of_main(struct task *self, const char *arg)
{
	long pid = 0;

	parse_int(arg, &pid);
	kernel_enter(self);
	waiter_of_ret = task_wait((int)pid);
	kernel_leave(self);
}

static const struct program waiter_of = {"kt_waiter_of", waiter_of_main,
					 NULL, NULL};

/*
 * A task waits for another, and is killed while it waits: it will never
 * wait again, and nobody else was going to. The other, when it exits,
 * is reaped by the reaper: no zombie is left.
 */
static void ktest_sched_waiter_killed(struct ktest *t)
{
	struct task *task, *waiter;
	char arg[16];
	int pid, waiter_pid;

	pid = start(t, &sleeper, "");
	task = pid > 0 ? task_get(pid) : NULL;
	if (!task)
		return;
	snprintf(arg, sizeof(arg), "%d", pid);
	waiter_of_ret = 0;
	waiter_pid = start(t, &waiter_of, arg);
	waiter = waiter_pid > 0 ? task_get(waiter_pid) : NULL;
	KTEST_EXPECT(t, waiter && poll(waiter, is_sleeping, 2000),
		     "the waiter sleeps in wait");
	if (waiter) {
		task_kill_user(waiter);
		KTEST_EXPECT(t, task_wait(waiter_pid) == 0,
			     "the waiter is killed, and reaped");
		KTEST_EXPECT(t, waiter_of_ret == -EINTR,
			     "its wait gave up: EINTR");
		task_put(waiter);
	}
	/* `kill`: reaped as if it had exited by itself. */
	task_kill_user(task);
	KTEST_EXPECT(t, poll(task, is_reaped, 2000),
		     "it exits, and the reaper reaps it");
	task_put(task);
	KTEST_EXPECT(t, !in_table(pid), "no zombie left in the table");
	if (in_table(pid))
		task_wait(pid);  /* left: reap it for the tests after this */
}
KTEST(sched_waiter_killed);

/* --- wait queues and sleep ------------------------------------------------ */

static DECLARE_WAIT_QUEUE_HEAD(ktest_wq);
static volatile int ktest_flag;

static void waiter_main(struct task *self, const char *arg)
{
	kernel_enter(self);
	if (wait_event_killable(&ktest_wq, ktest_flag))
		self->work = 1;
	kernel_leave(self);
}

static const struct program waiter = {"kt_waiter", waiter_main, NULL, NULL};

#define NR_WAITERS 8

static void ktest_sched_wait_queue(struct ktest *t)
{
	struct task *tasks[NR_WAITERS];
	int pids[NR_WAITERS];

	ktest_flag = 0;
	for (int i = 0; i < NR_WAITERS; i++) {
		pids[i] = start(t, &waiter, "");
		tasks[i] = pids[i] > 0 ? task_get(pids[i]) : NULL;
		if (!tasks[i])
			return;
	}
	for (int i = 0; i < NR_WAITERS; i++)
		KTEST_EXPECT(t, poll(tasks[i], is_sleeping, 2000),
			     "each waiter sleeps on the queue");
	msleep(10);
	for (int i = 0; i < NR_WAITERS; i++)
		KTEST_EXPECT(t, tasks[i]->work == 0,
			     "nobody woke without cause");
	ktest_flag = 1;
	wake_up_all(&ktest_wq);
	for (int i = 0; i < NR_WAITERS; i++) {
		KTEST_EXPECT(t, task_wait(pids[i]) == 0, "woken, it exits");
		KTEST_EXPECT(t, tasks[i]->work == 1,
			     "it saw the condition true");
		task_put(tasks[i]);
	}
	KTEST_EXPECT(t, !wait_queue_active(&ktest_wq), "the queue is empty");
}
KTEST(sched_wait_queue);

static void ktest_sched_msleep(struct ktest *t)
{
	uint64_t start = jiffies;

	msleep(20);
	KTEST_EXPECT(t, jiffies - start >= 20, "msleep(20) sleeps 20 ms");
	KTEST_EXPECT(t, jiffies - start < 2000, "... and wakes up");
}
KTEST(sched_msleep);

/* --- preemption ----------------------------------------------------------- */

/* Twice as many spinners as CPUs, in one domain: each CPU has two or more
 * tasks that never give up the CPU, and every one makes progress. */
static void ktest_sched_preemption(struct ktest *t)
{
	unsigned int n = 2 * nr_cpus, tasks0 = nr_tasks();
	struct task *tasks[2 * NR_CPUS];
	uint64_t before[2 * NR_CPUS];
	int pids[2 * NR_CPUS];

	for (unsigned int i = 0; i < n; i++) {
		pids[i] = start(t, &spinner, "");
		tasks[i] = pids[i] > 0 ? task_get(pids[i]) : NULL;
	}
	msleep(100);
	for (unsigned int i = 0; i < n; i++)
		before[i] = tasks[i] ? tasks[i]->work : 0;
	msleep(200);  /* the shell itself gets to run: it is back */
	for (unsigned int i = 0; i < n; i++)
		KTEST_EXPECT(t, tasks[i] && tasks[i]->work > before[i],
			     "every spinner progresses: none starves");
	for (unsigned int i = 0; i < n; i++) {
		if (!tasks[i])
			continue;
		task_kill_user(tasks[i]);
		KTEST_EXPECT(t, task_wait(pids[i]) == 0, "killed and reaped");
		task_put(tasks[i]);
	}
	KTEST_EXPECT(t, quiet_tasks(tasks0), "all gone");
}
KTEST(sched_preemption);

/* --- the cost of fork + exit + reap --------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void ktest_sched_fork_exit_cycles(struct ktest *t)
{
	static uint64_t samples[FORK_EXIT_OPS];
	unsigned int tasks0 = nr_tasks();
	unsigned int n = fork_exit_samples(samples);

	KTEST_EXPECT(t, n == FORK_EXIT_OPS, "every fork succeeded");
	KTEST_EXPECT(t, quiet_tasks(tasks0), "every task reaped");
	/* A reaped task's stack was freed first: none is left to free. */
	KTEST_EXPECT(t, exited_stacks_unfreed() == 0,
		     "no exited task's stack left to free");
	if (n == 0)
		return;
	qsort(samples, n, sizeof(uint64_t), cmp_u64);
	printk("# fork_exit median_cycles=%llu p99_cycles=%llu ops=%u\n",
	       (unsigned long long)samples[n / 2],
	       (unsigned long long)samples[n * 99 / 100], n);
}
KTEST(sched_fork_exit_cycles);
