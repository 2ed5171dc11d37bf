// SPDX-License-Identifier: MIT
/*
 * kernel/programs/demo.c - the `demo` command behind the fork-bomb
 * demonstration (boot script `demo` in kernel/shell/script.c):
 *
 *   demo start DOMAIN      start a worker in DOMAIN; measure its rate
 *                          (units of work per second, with the other
 *                          CPUs kept busy too) and MemFree: the "before"
 *                          figures
 *   demo watch BOMB SECS   one status line a second: tasks in BOMB, its
 *                          kmem usage/limit and kmem failcnt, the worker's
 *                          rate, CPU and share of CPU (below), how late
 *                          the shell ran after waking, MemFree
 *   demo stop BOMB         cgroup.kill, wait for BOMB's tasks to go,
 *                          rmdir it, wait for it to be freed; compare
 *                          MemFree with the "before" figure
 *
 * The worker, three ways (docs/design.md, "The demonstration's figures"):
 *
 *   rate   its units of work per second, as a percentage of its rate
 *          before the bomb, by the TSC - the host's clock under TCG, so a
 *          host that deschedules QEMU's vCPU thread makes it drop,
 *          whatever the kernel does.
 *   cpu    the part of its CPU's time it ran, by the scheduler's clock.
 *   share  what it ran as a percentage of its fair share: the CPU time a
 *          fair scheduler owes it on its CPU (fair_share() in
 *          kernel/programs/worker_share.c). 100%
 *          means that no other domain got more than an equal part; the
 *          bomb may still use what the worker leaves. Both this and cpu
 *          come from the scheduler's own accounting (sched_cpu_times), so
 *          a loaded host moves neither.
 *
 * Everything else it prints it reads as a user would: from the control
 * files (through the ctlfs path operations) and the worker's progress
 * counter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86_64/io.h"
#include "arch/x86_64/lapic.h"
#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/fork.h"
#include "kernel/base/platform.h"
#include "kernel/programs/worker_share.h"
#include "kernel/sched/program.h"
#include "kernel/sched/sched.h"
#include "kernel/base/shell_command.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "kernel/sched/task_table.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "mm/buddy.h"
#include "mm/memcg/memcontrol.h"

static int worker_pid = -1;
static uint64_t worker_rate_before;  /* units per second */
static unsigned long memfree_before; /* pages; 0 until demo start */

/* read_u64 - a control file's number, or -1 if it cannot be read. */
static int64_t read_u64(const char *dir, const char *file)
{
	char path[CTL_PATH_MAX], buf[64], why[CTL_WHY_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (ctl_read(path, buf, sizeof(buf), why) < 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

static int64_t nr_dying(void)
{
	char buf[128], why[CTL_WHY_MAX];
	if (ctl_read("/cgroup/cgroup.stat", buf, sizeof(buf), why) < 0)
		return -1;
	char *p = strstr(buf, "nr_dying_descendants ");
	return p ? strtoll(p + strlen("nr_dying_descendants "), NULL, 10) : -1;
}

static unsigned int domain_tasks(const char *dir)
{
	struct mem_cgroup *memcg;
	if (cgroupfs_get_domain(dir, &memcg) < 0)
		return 0;
	unsigned int n = READ_ONCE(memcg->nr_tasks);
	mem_cgroup_put(memcg);
	return n;
}

/*
 * busy_other_cpus - for the "before" figure, keep the other CPUs as busy
 * as the bomb will: a plain worker each, in the worker's domain (so the
 * balancer spreads them one a CPU). Under TCG each CPU is a host thread,
 * and on a loaded host two busy threads get less of it each than one:
 * measured with the other CPUs idle, the worker's rate would drop during
 * the bomb whatever the kernel does. Returns how many were started; their
 * PIDs go in pids.
 */
static int busy_other_cpus(struct mem_cgroup *memcg, int *pids, int max)
{
	const struct program *worker = program_find("worker");
	int n = 0;

	for (unsigned int cpu = 1; cpu < nr_cpus && n < max; cpu++) {
		int pid = task_spawn(memcg, worker, "");
		if (pid < 0)
			break;
		pids[n++] = pid;
	}
	return n;
}

static void stop_tasks(const int *pids, int n)
{
	for (int i = 0; i < n; i++) {
		struct task *t = task_get(pids[i]);
		if (t) {
			task_kill_user(t);
			task_put(t);
		}
		task_wait(pids[i]);  /* and reaped: its stack is free again */
	}
}

static int demo_start(const char *dir)
{
	struct mem_cgroup *memcg;
	const struct program *worker = program_find("worker");
	int err = cgroupfs_get_domain(dir, &memcg);
	int busy[8], nr_busy;
	struct worker_share sh;

	if (err < 0)
		return shell_error(-err, "no domain %s", dir);
	int pid = task_spawn(memcg, worker, "");
	if (pid < 0) {
		mem_cgroup_put(memcg);
		return shell_error(-pid, "cannot start the worker in %s", dir);
	}
	worker_pid = pid;
	nr_busy = busy_other_cpus(memcg, busy, (int)ARRAY_SIZE(busy));
	mem_cgroup_put(memcg);
	msleep(200);  /* let them get going, and spread */
	worker_rate_before = worker_measure(worker_pid, 1000, &sh);
	stop_tasks(busy, nr_busy);
	memfree_before = nr_free_pages();
	printk("demo: worker pid %d in %s: %lu units/s before the bomb "
	       "(cpu=%lu%%, %s); MemFree %lu kB\n", pid, dir,
	       (unsigned long)worker_rate_before, percent(sh.got, sh.total),
	       nr_busy ? "the other CPUs busy too" : "one CPU",
	       memfree_before * 4);
	return 0;
}

static int demo_watch(const char *bomb, long seconds)
{
	int64_t limit = read_u64(bomb, "memory.kmem.limit_in_bytes");
	if (limit < 0)
		return shell_error(ENOENT, "no domain %s", bomb);
	for (long s = 1; s <= seconds; s++) {
		struct worker_share sh;
		uint64_t rate = worker_measure(worker_pid, 1000, &sh);
		int64_t usage = read_u64(bomb, "memory.kmem.usage_in_bytes");
		int64_t failcnt = read_u64(bomb, "memory.kmem.failcnt");
		char lim[32];
		if (limit == INT64_MAX)
			snprintf(lim, sizeof(lim), "unlimited");
		else
			snprintf(lim, sizeof(lim), "%ld", (long)limit);
		unsigned long share = percent(sh.got, sh.owed);
		printk("demo: t=%lds bomb tasks=%u kmem=%ld/%s "
		       "kmem.failcnt=%ld "
		       "worker rate=%lu%% cpu=%lu%% share=%lu%% shell=%lums "
		       "MemFree=%lu kB\n",
		       s, domain_tasks(bomb), (long)usage, lim, (long)failcnt,
		       percent(rate, worker_rate_before),
		       percent(sh.got, sh.total), share > 100 ? 100 : share,
		       (unsigned long)sh.shell_wait_ms, nr_free_pages() * 4);
	}
	return 0;
}

static int demo_stop(const char *bomb)
{
	char path[CTL_PATH_MAX], why[CTL_WHY_MAX];
	uint64_t t0 = uptime_ms();

	snprintf(path, sizeof(path), "%s/cgroup.kill", bomb);
	int err = ctl_write(path, "1", why);
	if (err < 0)
		return shell_error(-err, "%s", why);
	while (domain_tasks(bomb) > 0 && uptime_ms() - t0 < 30000)
		msleep(50);
	err = ctl_rmdir(bomb, why);
	if (err < 0)
		return shell_error(-err, "%s", why);
	while (nr_dying() > 0 && uptime_ms() - t0 < 30000)
		msleep(50);
	/* A domain without a kmem limit is not held by its killed tasks'
	 * stacks (nobody charges them): wait for the reaper to free them. */
	while (exited_stacks_unfreed() > 0 && uptime_ms() - t0 < 30000)
		msleep(50);
	unsigned long now = nr_free_pages();
	char before[64] = "no 'demo start' before: nothing to compare";

	if (memfree_before)
		snprintf(before, sizeof(before),
			 "before the bomb %lu kB (%+ld pages)",
			 memfree_before * 4, (long)now - (long)memfree_before);
	printk("demo: bomb killed and removed in %lu ms; MemFree %lu kB, "
	       "%s; nr_dying_descendants %ld\n",
	       (unsigned long)(uptime_ms() - t0), now * 4, before,
	       (long)nr_dying());
	return 0;
}

static int cmd_demo(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "start"))
		return demo_start(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "watch")) {
		char *end;
		long secs = strtol(argv[3], &end, 10);
		if (*end || secs < 1 || secs > 600)
			return shell_error(EINVAL, "SECS must be 1..600");
		if (worker_pid < 0)
			return shell_error(EINVAL,
					   "run 'demo start DOMAIN' first");
		return demo_watch(argv[2], secs);
	}
	if (argc == 3 && !strcmp(argv[1], "stop"))
		return demo_stop(argv[2]);
	return shell_error(
		EINVAL,
		"usage: demo start DOMAIN | watch BOMB SECS | stop BOMB");
}
SHELL_COMMAND(demo, "demo start DOMAIN | watch BOMB SECS | stop BOMB",
	      "the fork-bomb demonstration's measurements (script=demo)");
