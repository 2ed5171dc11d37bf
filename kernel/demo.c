/*
 * kernel/demo.c - the `demo` command behind the fork-bomb demonstration
 * (SPEC 8, boot script `demo` in kernel/script.c):
 *
 *   demo start DOMAIN      start a worker in DOMAIN; measure its rate
 *                          (units of work per second) and MemFree: the
 *                          "before" figures
 *   demo watch BOMB SECS   one status line a second: tasks in BOMB, its
 *                          kmem usage/limit and kmem failcnt, the worker's
 *                          rate as a percentage of its rate before, MemFree
 *   demo stop BOMB         cgroup.kill, wait for BOMB's tasks to go,
 *                          rmdir it, wait for it to be freed; compare
 *                          MemFree with the "before" figure
 *
 * Everything it prints it reads as a user would: from the control files
 * (through the ctlfs path operations) and the worker's progress counter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cgroupfs.h"
#include "kernel/ctlfs.h"
#include "kernel/fork.h"
#include "kernel/platform.h"
#include "kernel/program.h"
#include "kernel/shell_command.h"
#include "kernel/task.h"
#include "kernel/task_ops.h"
#include "kernel/time.h"
#include "mm/buddy.h"
#include "mm/memcontrol.h"

static int worker_pid = -1;
static uint64_t worker_rate_before;  /* units per second */
static unsigned long memfree_before; /* pages */

static uint64_t worker_work(void)
{
	struct task *t = task_get(worker_pid);
	uint64_t work = t ? t->work : 0;
	if (t)
		task_put(t);
	return work;
}

/* worker_rate - the worker's units of work over the next ms milliseconds,
 * per second. */
static uint64_t worker_rate(unsigned int ms)
{
	uint64_t w0 = worker_work(), t0 = uptime_ms();
	msleep(ms);
	uint64_t w1 = worker_work(), t1 = uptime_ms();
	return t1 > t0 ? (w1 - w0) * 1000 / (t1 - t0) : 0;
}

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

static int demo_start(const char *dir)
{
	struct mem_cgroup *memcg;
	const struct program *worker = program_find("worker");
	int err = cgroupfs_get_domain(dir, &memcg);

	if (err < 0)
		return shell_error(-err, "no domain %s", dir);
	int pid = task_spawn(memcg, worker, "");
	mem_cgroup_put(memcg);
	if (pid < 0)
		return shell_error(-pid, "cannot start the worker in %s", dir);
	worker_pid = pid;
	msleep(200);  /* let it get going */
	worker_rate_before = worker_rate(1000);
	memfree_before = nr_free_pages();
	printk("demo: worker pid %d in %s: %lu units/s before the bomb; "
	       "MemFree %lu kB\n", pid, dir, (unsigned long)worker_rate_before,
	       memfree_before * 4);
	return 0;
}

static int demo_watch(const char *bomb, long seconds)
{
	int64_t limit = read_u64(bomb, "memory.kmem.limit_in_bytes");
	if (limit < 0)
		return shell_error(ENOENT, "no domain %s", bomb);
	for (long s = 1; s <= seconds; s++) {
		uint64_t rate = worker_rate(1000);
		int64_t usage = read_u64(bomb, "memory.kmem.usage_in_bytes");
		int64_t failcnt = read_u64(bomb, "memory.kmem.failcnt");
		char lim[32];
		if (limit == INT64_MAX)
			snprintf(lim, sizeof(lim), "unlimited");
		else
			snprintf(lim, sizeof(lim), "%ld", (long)limit);
		printk("demo: t=%lds bomb tasks=%u kmem=%ld/%s kmem.failcnt=%ld "
		       "worker=%lu%% MemFree=%lu kB\n", s, domain_tasks(bomb),
		       (long)usage, lim, (long)failcnt,
		       worker_rate_before ? (unsigned long)(rate * 100 / worker_rate_before) : 0,
		       nr_free_pages() * 4);
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
	unsigned long now = nr_free_pages();
	printk("demo: bomb killed and removed in %lu ms; MemFree %lu kB, "
	       "before the bomb %lu kB (%+ld pages); nr_dying_descendants %ld\n",
	       (unsigned long)(uptime_ms() - t0), now * 4, memfree_before * 4,
	       (long)now - (long)memfree_before, (long)nr_dying());
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
			return shell_error(EINVAL, "run 'demo start DOMAIN' first");
		return demo_watch(argv[2], secs);
	}
	if (argc == 3 && !strcmp(argv[1], "stop"))
		return demo_stop(argv[2]);
	return shell_error(EINVAL, "usage: demo start DOMAIN | watch BOMB SECS | stop BOMB");
}
SHELL_COMMAND(demo, "demo start DOMAIN | watch BOMB SECS | stop BOMB",
	      "the fork-bomb demonstration's measurements (script=demo)");
