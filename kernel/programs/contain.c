// SPDX-License-Identifier: MIT
/*
 * kernel/programs/contain.c - the `contain` command behind `make contain`
 * (boot scripts contain-kmem, contain-pids, contain-max, contain-high and
 * contain-v2 in kernel/shell/script.c; docs/containment.md):
 *
 *   contain [-v] MECH GOOD BOMB SECS
 *
 * runs the fork bomb in the domain BOMB, whose limit for mechanism MECH
 * the script has set, next to a worker in GOOD, for SECS seconds; then
 * kills the bomb, removes BOMB, waits for it to be freed, and prints one
 * line:
 *
 *   contain MECH limit=L tasks_peak=N tasks_end=N forks_ok=N
 *   forks_failed=N errno=E oom_kills=N worker_share_pct=P shell_max_ms=M
 *   contained_ms=T after_kill_pages=D dying=N
 *
 * (one line on the console). MECH and the file its limit L is read from:
 *
 *   kmem   memory.kmem.limit_in_bytes   v1: the 2012 design, ENOMEM
 *   pids   pids.max                     v1 or v2: EAGAIN
 *   max    memory.max                   v2: OOM kills
 *   high   memory.high                  v2: throttling
 *
 * tasks_peak and tasks_end: the bomb's live tasks, sampled every
 * SAMPLE_MS (-v prints each sample: "contain: MECH t=MS tasks=N");
 * forks_ok, forks_failed and errno (the commonest error, or -): what the
 * bomb's forks got (kernel/programs/forkbomb_stats.h); oom_kills: BOMB's
 * oom_kill count (memory.events in v2, memory.oom_control in v1);
 * worker_share_pct and shell_max_ms: the worker's CPU time against its
 * fair share, and the longest the shell waited for the CPU once woken
 * (kernel/programs/worker_share.h); contained_ms: from the bomb's start
 * until its task count last grew; after_kill_pages: MemFree once BOMB is
 * gone, less MemFree before the bomb (pages, each read after writing 2 to
 * /proc/sys/vm/drop_caches); dying: nr_dying_descendants then.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/base/platform.h"
#include "kernel/base/shell_command.h"
#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/programs/forkbomb_stats.h"
#include "kernel/programs/worker_share.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/fork.h"
#include "kernel/sched/program.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task_table.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "kernel/time/time.h"
#include "mm/buddy.h"
#include "mm/memcg/memcontrol.h"

#define SAMPLE_MS 100
#define SETTLE_MS 30000  /* the most we wait for the bomb to go */

static const struct mechanism {
	const char *name;
	const char *limit_file;
} mechanisms[] = {
	{"kmem", "memory.kmem.limit_in_bytes"},
	{"pids", "pids.max"},
	{"max", "memory.max"},
	{"high", "memory.high"},
};

/* read_file - dir/file's text, without its last newline; false if it
 * cannot be read. */
static bool read_file(const char *dir, const char *file, char *buf,
		      size_t size)
{
	char path[CTL_PATH_MAX], why[CTL_WHY_MAX];
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = ctl_read(path, buf, size, why);
	if (n < 0)
		return false;
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return true;
}

/* key_value - the number after "key " at the start of a line of text. */
static long key_value(const char *text, const char *key)
{
	size_t len = strlen(key);

	for (const char *p = text; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, key, len) == 0 && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
	}
	return -1;
}

/* oom_kills - the OOM kills in dir: v2's memory.events, else v1's
 * memory.oom_control. */
static long oom_kills(const char *dir)
{
	char text[512];

	if (read_file(dir, "memory.events", text, sizeof(text)) ||
	    read_file(dir, "memory.oom_control", text, sizeof(text)))
		return key_value(text, "oom_kill");
	return -1;
}

static long nr_dying(void)
{
	char text[256];

	if (!read_file(cgroupfs_root_path(), "cgroup.stat", text,
		       sizeof(text)))
		return -1;
	return key_value(text, "nr_dying_descendants");
}

/* domain_tasks - live tasks in the domain whose directory is dir. */
static unsigned int domain_tasks(const char *dir)
{
	struct mem_cgroup *memcg;
	unsigned int n;

	if (cgroupfs_get_domain(dir, &memcg) < 0)
		return 0;
	n = READ_ONCE(memcg->nr_tasks);
	mem_cgroup_put(memcg);
	return n;
}

/* spawn_in - start prog in the domain of dir; its PID or -errno. */
static int spawn_in(const char *dir, const char *prog)
{
	struct mem_cgroup *memcg;
	int ret = cgroupfs_get_domain(dir, &memcg);

	if (ret < 0)
		return ret;
	ret = task_spawn(memcg, program_find(prog), "");
	mem_cgroup_put(memcg);
	return ret;
}

static void stop_task(int pid)
{
	struct task *t = task_get(pid);

	if (t) {
		task_kill_user(t);
		task_put(t);
	}
	task_wait(pid);  /* and reaped */
}

/*
 * free_pages_settled - MemFree, in pages, once the slab caches have given
 * back the slabs they keep for their next allocations (drop_caches, as a
 * user would write it): the bomb's task structs come from the root cache
 * when its kernel memory is not accounted (pids.max) or is charged by the
 * object (v2), and each CPU keeps a slab of it.
 */
static unsigned long free_pages_settled(void)
{
	char why[CTL_WHY_MAX];

	ctl_write("/proc/sys/vm/drop_caches", "2", why);
	return nr_free_pages();
}

/* What one run saw. */
struct containment {
	unsigned int tasks_peak, tasks_end;
	uint64_t contained_ms;
	struct worker_share share;  /* summed over the samples */
	struct forkbomb_stats forks;
};

/* watch - sample the bomb every SAMPLE_MS for secs seconds. */
static void watch(const char *mech, const char *bomb, int worker, long secs,
		  bool verbose, struct containment *c)
{
	uint64_t t0 = uptime_ms();

	if (verbose)
		printk("contain: %s t=0 tasks=%u\n", mech, domain_tasks(bomb));
	for (long ms = 0; ms < secs * 1000; ms += SAMPLE_MS) {
		struct worker_share sh;
		unsigned int n;

		worker_measure(worker, SAMPLE_MS, &sh);
		c->share.got += sh.got;
		c->share.owed += sh.owed;
		if (sh.shell_wait_ms > c->share.shell_wait_ms)
			c->share.shell_wait_ms = sh.shell_wait_ms;
		n = domain_tasks(bomb);
		if (n > c->tasks_peak) {
			c->tasks_peak = n;
			c->contained_ms = uptime_ms() - t0;
		}
		c->tasks_end = n;
		if (verbose)
			printk("contain: %s t=%lu tasks=%u\n", mech,
			       (unsigned long)(uptime_ms() - t0), n);
	}
	c->forks = forkbomb_stats;  /* before the kill adds its own */
}

/* commonest_errno - the error most refused forks got, or "-". */
static const char *commonest_errno(const struct forkbomb_stats *f)
{
	if (!f->enomem && !f->eagain && !f->other)
		return "-";
	if (f->eagain >= f->enomem && f->eagain >= f->other)
		return "EAGAIN";
	if (f->enomem >= f->other)
		return "ENOMEM";
	return "other";
}

/* remove_bomb - cgroup.kill, wait for the tasks to be reaped, rmdir,
 * wait for the domain to be freed and for the killed tasks' stacks to be
 * freed. 0 or -errno (with shell_error). */
static int remove_bomb(const char *bomb, int bomb_pid)
{
	char path[CTL_PATH_MAX], why[CTL_WHY_MAX];
	uint64_t t0 = uptime_ms();
	int err;

	snprintf(path, sizeof(path), "%s/cgroup.kill", bomb);
	err = ctl_write(path, "1", why);
	if (err < 0)
		return shell_error(-err, "%s", why);
	task_wait(bomb_pid);  /* the first bomb task: `contain` reaps it */
	while (domain_tasks(bomb) > 0 && uptime_ms() - t0 < SETTLE_MS)
		msleep(50);
	/* Its last tasks may still be zombies for a moment (a v2 rmdir of a
	 * domain whose tasks were killed waits for them to be reaped). */
	while ((err = ctl_rmdir(bomb, why)) == -EBUSY &&
	       uptime_ms() - t0 < SETTLE_MS)
		msleep(50);
	if (err < 0)
		return shell_error(-err, "%s", why);
	while (nr_dying() > 0 && uptime_ms() - t0 < SETTLE_MS)
		msleep(50);
	/* A killed task leaves its domain before the reaper frees its
	 * stack, and a domain whose kernel memory nobody charges (pids.max
	 * in v1) is removed and freed meanwhile: MemFree must wait for the
	 * stacks. */
	while (exited_stacks_unfreed() > 0 && uptime_ms() - t0 < SETTLE_MS)
		msleep(50);
	return 0;
}

static int contain(const struct mechanism *m, const char *good,
		   const char *bomb, long secs, bool verbose)
{
	struct containment c = {0};
	char limit[64];
	unsigned long before, after;
	int worker, bomb_pid, err;

	if (!read_file(bomb, m->limit_file, limit, sizeof(limit)))
		return shell_error(ENOENT, "no %s/%s", bomb, m->limit_file);
	worker = spawn_in(good, "worker");
	if (worker < 0)
		return shell_error(-worker, "cannot start the worker in %s",
				   good);
	msleep(200);  /* let it get going */
	before = free_pages_settled();
	memset(&forkbomb_stats, 0, sizeof(forkbomb_stats));
	bomb_pid = spawn_in(bomb, "forkbomb");
	if (bomb_pid < 0) {
		stop_task(worker);
		return shell_error(-bomb_pid, "cannot start the bomb in %s",
				   bomb);
	}
	watch(m->name, bomb, worker, secs, verbose, &c);
	long kills = oom_kills(bomb);

	err = remove_bomb(bomb, bomb_pid);
	after = free_pages_settled();
	stop_task(worker);
	if (err)
		return err;
	unsigned long share = percent(c.share.got, c.share.owed);
	uint64_t failed = c.forks.enomem + c.forks.eagain + c.forks.other;

	printk("contain %s limit=%s tasks_peak=%u tasks_end=%u forks_ok=%llu "
	       "forks_failed=%llu errno=%s oom_kills=%ld "
	       "worker_share_pct=%lu shell_max_ms=%llu contained_ms=%llu "
	       "after_kill_pages=%ld dying=%ld\n",
	       m->name, limit, c.tasks_peak, c.tasks_end,
	       (unsigned long long)c.forks.forks_ok,
	       (unsigned long long)failed,
	       commonest_errno(&c.forks), kills, share > 100 ? 100 : share,
	       (unsigned long long)c.share.shell_wait_ms,
	       (unsigned long long)c.contained_ms,
	       (long)after - (long)before, nr_dying());
	return 0;
}

static int cmd_contain(int argc, char **argv)
{
	bool verbose = argc > 1 && !strcmp(argv[1], "-v");
	char *end;
	long secs;

	if (verbose) {
		argc--;
		argv++;
	}
	if (argc != 5)
		return shell_error(EINVAL, "usage: contain [-v] MECH GOOD "
				   "BOMB SECS");
	secs = strtol(argv[4], &end, 10);
	if (*end || secs < 1 || secs > 600)
		return shell_error(EINVAL, "SECS must be 1..600");
	for (size_t i = 0; i < ARRAY_SIZE(mechanisms); i++)
		if (!strcmp(argv[1], mechanisms[i].name))
			return contain(&mechanisms[i], argv[2], argv[3], secs,
				       verbose);
	return shell_error(EINVAL, "MECH is kmem, pids, max or high");
}
SHELL_COMMAND(contain, "contain [-v] MECH GOOD BOMB SECS",
	      "a fork bomb in BOMB contained by MECH (kmem, pids, max, "
	      "high) next to a worker in GOOD: one line of figures");
