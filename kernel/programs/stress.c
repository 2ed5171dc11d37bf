// SPDX-License-Identifier: MIT
/*
 * kernel/programs/stress.c - `stress SECONDS`: every CPU changes the
 * domain tree and its tasks at random for SECONDS, as fast as it can,
 * through the same calls a user's commands make; then everything it made
 * is undone, and `check` must find every accounting invariant intact
 * (mm/memcg/memcg_check.c).
 *
 *   run DOMAIN stress SECONDS    a task in DOMAIN starts one stress worker
 *                                per CPU there, waits for them, cleans up
 *                                and prints a summary
 *   stress SECONDS               the shell command: the same in /cgroup,
 *                                and the shell waits for it to finish
 *
 * Each worker, in a loop: mkdir and rmdir at random depths in a small
 * tree under /cgroup (s0..s2, three levels, so that the workers collide
 * on the same names), limit changes (user and kmem, including limits
 * below the usage, which must be refused with EBUSY), use_hierarchy,
 * reads of the control files, `run` of programs into random domains
 * (worker, which exits by itself: fork and exit; spin; hog, cache and
 * kmemhog, user and kernel allocations; and a forkbomb under a 1M kmem
 * limit, which another worker may lift: the bomb then fills memory until
 * the cleanup's cgroup.kill), kills, task moves (`echo PID > tasks`) and
 * cgroup.kill.
 *
 * Booted with cgroup=v2 the same runs on /sys/fs/cgroup with its files:
 * memory.max and memory.high for the limits (never refused: below the
 * usage they reclaim and OOM-kill) and memory.min and memory.low for
 * the protections, `+memory`/`-memory` in
 * cgroup.subtree_control instead of use_hierarchy (which makes `run` and
 * moves into that directory EBUSY: no internal processes), cgroup.procs
 * for tasks, the bomb contained by memory.max 1M and OOM kills, and
 * cgroup.freeze: tasks frozen and thawed while others kill, move and
 * OOM-kill them.
 *
 * Every operation goes through the path operations of kernel/fs/ctlfs.h
 * (ctl_mkdir, ctl_rmdir, ctl_write, ctl_read), and `run`, `kill` and
 * `wait` through the calls the shell's commands make (task_spawn,
 * task_kill_user, task_wait): so the locking being exercised is the real
 * one. Each answer is checked against the errors the operation may
 * legitimately give when others race with it (EEXIST, ENOENT, EBUSY,
 * ENOMEM, ...); any other is a bug, counted and printed as
 *
 *   stress: unexpected EINVAL from limit /cgroup/s1/memory.limit_in_bytes 1M
 *
 * and the summary line says how many there were:
 *
 *   stress: 30 s on 4 CPUs: 123456 operations, 0 unexpected errors
 */
#include "kernel/programs/stress.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/lib/errno_name.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/fork.h"
#include "kernel/lib/memparse.h"
#include "kernel/sched/program.h"
#include "kernel/base/shell_command.h"
#include "kernel/task/task_ops.h"
#include "kernel/sched/task_table.h"
#include "kernel/time/time.h"
#include "mm/memcg/memcg_v2.h"
#include "mm/memcg/memcontrol.h"
#include "mm/slab.h"

#define STRESS_SECONDS_MAX 3600
#define STRESS_NAMES 3         /* s0, s1, s2 at each level */
#define STRESS_DEPTH 3         /* /cgroup/sA/sB/sC */
#define STRESS_CHILDREN 8      /* tasks a worker has started and not reaped */
#define UNEXPECTED_SHOWN 10    /* unexpected errors printed */
#define CLEANUP_IDLE_MS 10000  /* the cleanup's patience: no task left */

enum stress_op {
	OP_MKDIR, OP_RMDIR, OP_LIMIT, OP_HIERARCHY, OP_READ, OP_RUN,
	OP_KILL, OP_MOVE, OP_CGROUP_KILL, OP_FREEZE, NR_OPS
};

static const char *const op_names[NR_OPS] = {
	"mkdir", "rmdir", "limit", "use_hierarchy", "read", "run",
	"kill", "move", "cgroup.kill", "cgroup.freeze",
};

/* op_name - use_hierarchy is cgroup.subtree_control in v2. */
static const char *op_name(enum stress_op op)
{
	if (cgroup_v2 && op == OP_HIERARCHY)
		return "subtree_control";
	return op_names[op];
}

/* How often each is chosen, out of the sum. */
static const unsigned int op_weights[NR_OPS] = {
	20, 14, 14, 4, 8, 14, 10, 10, 3, 4,
};

/* op_weight - v1 has no cgroup.freeze. */
static unsigned int op_weight(enum stress_op op)
{
	return op == OP_FREEZE && !cgroup_v2 ? 0 : op_weights[op];
}

/* The totals of every worker of the running stress (one at a time). */
static struct {
	bool running;
	unsigned long ops[NR_OPS];
	unsigned long unexpected;
} stress;

/* One worker's state, on its stack. */
struct stress_worker {
	uint64_t rng;
	int children[STRESS_CHILDREN];  /* PIDs it has to reap; 0: none */
	char why[CTL_WHY_MAX];
};

static uint64_t rnd(struct stress_worker *w)
{
	/* xorshift64*: fast, good enough to pick operations */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return w->rng * 2685821657736338717ull;
}

static unsigned int rnd_below(struct stress_worker *w, unsigned int n)
{
	return (unsigned int)((rnd(w) >> 33) % n);
}

/* random_dir - a path at a random depth of the stress tree. */
static void random_dir(struct stress_worker *w, char *buf, size_t size)
{
	unsigned int depth = 1 + rnd_below(w, STRESS_DEPTH);
	size_t len = (size_t)snprintf(buf, size, "%s", cgroupfs_root_path());

	for (unsigned int d = 0; d < depth; d++)
		len += (size_t)snprintf(buf + len, size - len, "/s%u",
					rnd_below(w, STRESS_NAMES));
}

/* allowed - is err (negative) one of the answers in the list (ends 0)? */
static bool allowed(int err, const int *ok)
{
	if (err >= 0)
		return true;
	for (; *ok; ok++)
		if (-err == *ok)
			return true;
	return false;
}

static void expect(int err, const int *ok, enum stress_op op,
		   const char *what, const char *why)
{
	__atomic_add_fetch(&stress.ops[op], 1, __ATOMIC_RELAXED);
	if (allowed(err, ok))
		return;
	if (__atomic_fetch_add(&stress.unexpected, 1, __ATOMIC_RELAXED) <
	    UNEXPECTED_SHOWN)
		printk("stress: unexpected %s from %s %s: %s\n",
		       errno_name(err) ? errno_name(err) : "error",
		       op_name(op), what, why);
}

/* The answers each operation may give while other CPUs race with it (and
 * ENOMEM, with fault injection or when memory is out). */
static const int mkdir_ok[] = {EEXIST, ENOENT, ENOMEM, 0};
static const int rmdir_ok[] = {ENOENT, EBUSY, ENOMEM, 0};
static const int limit_ok[] = {ENOENT, EBUSY, ENOMEM, 0};
static const int hierarchy_ok[] = {ENOENT, EBUSY, EINVAL, ENOMEM, 0};
static const int read_ok[] = {ENOENT, ENOMEM, 0};
static const int run_ok[] = {ENOENT, ENOMEM, 0};
static const int wait_ok[] = {ESRCH, EINTR, 0};
static const int move_ok[] = {ENOENT, ESRCH, ENOMEM, 0};
static const int kill_all_ok[] = {ENOENT, ENOMEM, 0};
/* v2: a directory that enables memory takes no task (EBUSY), and a
 * child's memory files come and go with its parent's subtree_control. */
static const int subtree_ok[] = {ENOENT, EBUSY, ENOMEM, 0};
static const int run_v2_ok[] = {ENOENT, EBUSY, ENOMEM, 0};
static const int move_v2_ok[] = {ENOENT, ENODEV, ESRCH, EBUSY, ENOMEM, 0};
static const int freeze_ok[] = {ENOENT, ENOMEM, 0};

/* tasks_file - where a directory's tasks are listed and moved to. */
static const char *tasks_file(void)
{
	return cgroup_v2 ? "cgroup.procs" : "tasks";
}

/* --- the children a worker starts ----------------------------------------- */

static int *free_slot(struct stress_worker *w)
{
	for (int i = 0; i < STRESS_CHILDREN; i++)
		if (!w->children[i])
			return &w->children[i];
	return NULL;
}

static int *random_child(struct stress_worker *w)
{
	int first = (int)rnd_below(w, STRESS_CHILDREN);

	for (int i = 0; i < STRESS_CHILDREN; i++) {
		int *slot = &w->children[(first + i) % STRESS_CHILDREN];

		if (*slot)
			return slot;
	}
	return NULL;
}

/* kill_and_reap - `kill PID` then `wait PID`. A child that cgroup.kill
 * killed was reaped already: ESRCH. */
static void kill_and_reap(struct stress_worker *w, int *slot)
{
	char what[16];
	struct task *task = task_get(*slot);
	int ret;

	snprintf(what, sizeof(what), "%d", *slot);
	if (task) {
		task_kill_user(task);
		task_put(task);
	}
	ret = task_wait(*slot);
	expect(ret, wait_ok, OP_KILL, what, "wait");
	*slot = 0;
}

/* run_program - `run DIR PROG ARG`, as cmd_run does it. */
static void run_program(struct stress_worker *w, const char *dir,
			const char *name, const char *arg)
{
	const struct program *prog = program_find(name);
	struct mem_cgroup *memcg;
	int *slot = free_slot(w);
	int ret;

	if (!slot) {  /* full: make room */
		kill_and_reap(w, random_child(w));
		slot = free_slot(w);
	}
	ret = cgroupfs_get_domain(dir, &memcg);
	if (ret == 0) {
		ret = task_spawn(memcg, prog, arg);
		mem_cgroup_put(memcg);
	}
	expect(ret, cgroup_v2 ? run_v2_ok : run_ok, OP_RUN, dir, name);
	if (ret > 0)
		*slot = ret;
}

/* --- one operation -------------------------------------------------------- */

static const char *const limit_values[] = {
	"-1", "64K", "256K", "1M", "4M", "16M", "4096",
};
static const char *const limit_files[] = {
	"memory.limit_in_bytes", "memory.kmem.limit_in_bytes",
};
/* v2: the protections too, so that reclaim weighs them while others
 * charge, reclaim and OOM-kill in the same subtree. */
static const char *const limit_files_v2[] = {
	"memory.max", "memory.high", "memory.min", "memory.low",
};

static void stress_one(struct stress_worker *w)
{
	char dir[CTL_PATH_MAX], path[CTL_PATH_MAX], value[32];
	unsigned int total = 0, sum = 0, pick;
	enum stress_op op;
	char *buf;
	int *slot;
	int ret;

	for (op = 0; op < NR_OPS; op++)
		total += op_weight(op);
	pick = rnd_below(w, total);
	for (op = 0; op < NR_OPS - 1; op++) {
		sum += op_weight(op);
		if (pick < sum)
			break;
	}
	random_dir(w, dir, sizeof(dir));
	w->why[0] = '\0';

	switch (op) {
	case OP_MKDIR:
		ret = ctl_mkdir(dir, w->why);
		expect(ret, mkdir_ok, op, dir, w->why);
		break;
	case OP_RMDIR:
		ret = ctl_rmdir(dir, w->why);
		expect(ret, rmdir_ok, op, dir, w->why);
		break;
	case OP_LIMIT:
		if (cgroup_v2)
			snprintf(path, sizeof(path), "%s/%s", dir,
				 limit_files_v2[rnd_below(
					 w, ARRAY_SIZE(limit_files_v2))]);
		else
			snprintf(path, sizeof(path), "%s/%s", dir,
				 limit_files[rnd_below(
					 w, ARRAY_SIZE(limit_files))]);
		pick = rnd_below(w, ARRAY_SIZE(limit_values));
		snprintf(value, sizeof(value), "%s",
			 cgroup_v2 && pick == 0 ? "max" : limit_values[pick]);
		ret = ctl_write(path, value, w->why);
		snprintf(path + strlen(path), sizeof(path) - strlen(path),
			 " %s", value);
		expect(ret, limit_ok, op, path, w->why);
		break;
	case OP_HIERARCHY:
		if (cgroup_v2) {
			snprintf(path, sizeof(path),
				 "%s/cgroup.subtree_control", dir);
			ret = ctl_write(path, rnd_below(w, 2) ? "+memory"
							      : "-memory",
					w->why);
			expect(ret, subtree_ok, op, path, w->why);
			break;
		}
		snprintf(path, sizeof(path), "%s/memory.use_hierarchy", dir);
		ret = ctl_write(path, rnd_below(w, 2) ? "1" : "0", w->why);
		expect(ret, hierarchy_ok, op, path, w->why);
		break;
	case OP_READ:
		snprintf(path, sizeof(path), "%s/%s", dir,
			 rnd_below(w, 2) ? "memory.stat" : tasks_file());
		buf = kmalloc(CTL_READ_MAX, GFP_KERNEL);
		if (!buf) {
			expect(-ENOMEM, read_ok, op, path, "no buffer");
			break;
		}
		ret = ctl_read(path, buf, CTL_READ_MAX, w->why);
		kfree(buf);
		expect(ret, read_ok, op, path, w->why);
		break;
	case OP_RUN:
		switch (rnd_below(w, 6)) {
		case 0: run_program(w, dir, "worker", "200"); break;
		case 1: run_program(w, dir, "spin", ""); break;
		case 2: run_program(w, dir, "hog", "128K"); break;
		case 3: run_program(w, dir, "cache", "256K"); break;
		case 4: run_program(w, dir, "kmemhog", "64K"); break;
		default:
			/* A bomb, but contained: only once its domain has a
			 * kmem limit, or in v2 memory.max (which other
			 * workers may change). */
			snprintf(path, sizeof(path), "%s/%s", dir,
				 cgroup_v2 ? "memory.max"
					   : "memory.kmem.limit_in_bytes");
			if (ctl_write(path, "1M", w->why) == 0)
				run_program(w, dir, "forkbomb", "");
			break;
		}
		break;
	case OP_KILL:
		slot = random_child(w);
		if (slot)
			kill_and_reap(w, slot);
		break;
	case OP_MOVE:
		slot = random_child(w);
		if (!slot)
			break;
		snprintf(path, sizeof(path), "%s/%s", dir, tasks_file());
		snprintf(value, sizeof(value), "%d", *slot);
		ret = ctl_write(path, value, w->why);
		expect(ret, cgroup_v2 ? move_v2_ok : move_ok, op, path,
		       w->why);
		break;
	case OP_FREEZE:
		snprintf(path, sizeof(path), "%s/cgroup.freeze", dir);
		ret = ctl_write(path, rnd_below(w, 2) ? "1" : "0", w->why);
		expect(ret, freeze_ok, op, path, w->why);
		break;
	default:
		snprintf(path, sizeof(path), "%s/cgroup.kill", dir);
		ret = ctl_write(path, "1", w->why);
		expect(ret, kill_all_ok, op, path, w->why);
		break;
	}
}

/* --- the worker and the controller ---------------------------------------- */

/* At exit (a worker that is killed before its time is up): its children
 * go too, reaped by the reaper. */
static void stress_worker_exit(struct task *self)
{
	struct stress_worker *w = self->prog_data;

	for (int i = 0; i < STRESS_CHILDREN; i++) {
		struct task *task = w->children[i] ? task_get(w->children[i])
						   : NULL;

		if (task) {
			task_kill(task);
			task_put(task);
		}
	}
	self->prog_data = NULL;
}

static void stress_worker_main(struct task *self, const char *arg)
{
	struct stress_worker w = {0};
	long seconds = 0;
	uint64_t end;

	parse_int(arg, &seconds);
	end = uptime_ms() + (uint64_t)seconds * 1000;
	w.rng = 0x9e3779b97f4a7c15ull * (uint64_t)(self->pid + 1) ^
		uptime_ms();
	self->prog_data = &w;
	self->prog_exit = stress_worker_exit;
	while (uptime_ms() < end) {
		/* One operation is one kernel service: a kill waits for it. */
		kernel_enter(self);
		stress_one(&w);
		kernel_leave(self);
		self->work++;
	}
	kernel_enter(self);
	for (int i = 0; i < STRESS_CHILDREN; i++)
		if (w.children[i])
			kill_and_reap(&w, &w.children[i]);
	self->prog_exit = NULL;
	self->prog_data = NULL;
	kernel_leave(self);
}

static const struct program stress_worker_program = {
	"stress-worker", stress_worker_main, "stress-worker SECONDS", NULL,
};

/* cleanup - kill what is left in the stress tree and remove it, deepest
 * first; true when nothing is left. */
static bool cleanup(void)
{
	char path[CTL_PATH_MAX], why[CTL_WHY_MAX];
	unsigned int nr[STRESS_DEPTH + 1] = {1};
	bool clean = true;

	for (unsigned int d = 1; d <= STRESS_DEPTH; d++)
		nr[d] = nr[d - 1] * STRESS_NAMES;
	for (unsigned int i = 0; i < STRESS_NAMES; i++) {
		snprintf(path, sizeof(path), "%s/s%u/cgroup.kill",
			 cgroupfs_root_path(), i);
		ctl_write(path, "1", why);
	}
	for (int d = STRESS_DEPTH; d >= 1; d--) {
		for (unsigned int i = 0; i < nr[d]; i++) {
			size_t len = (size_t)snprintf(path, sizeof(path),
						      "%s",
						      cgroupfs_root_path());
			unsigned int rest = i;

			for (int level = 0; level < d; level++) {
				len += (size_t)snprintf(path + len,
							sizeof(path) - len,
							"/s%u",
							rest % STRESS_NAMES);
				rest /= STRESS_NAMES;
			}
			if (ctl_rmdir(path, why) != -ENOENT)
				clean = false;
		}
	}
	return clean;
}

/* stop_workers - stress itself was killed while it waited for its workers:
 * kill those still running (nobody will wait for them now: the reaper
 * reaps them), each killing its own children as it exits
 * (stress_worker_exit), so that nothing makes directories in the tree
 * while cleanup removes it. */
static void stop_workers(const int *pids, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		struct task *task = task_get(pids[i]);

		if (task) {
			task_kill(task);
			task_put(task);
		}
	}
}

int stress_check(const char *arg)
{
	long seconds;

	if (parse_int(arg, &seconds) < 0 || seconds < 1 ||
	    seconds > STRESS_SECONDS_MAX)
		return -EINVAL;
	return 0;
}

void stress_main(struct task *self, const char *arg)
{
	char domain[MEMCG_PATH_MAX];
	int workers[NR_CPUS];
	unsigned int nr = 0;
	struct mem_cgroup *memcg;
	unsigned long total = 0;
	bool killed = false, clean;
	unsigned int fewest;
	long seconds = 0;
	uint64_t end;

	parse_int(arg, &seconds);
	kernel_enter(self);
	if (__atomic_exchange_n(&stress.running, true, __ATOMIC_ACQUIRE)) {
		printk("stress: another stress is running\n");
		kernel_leave(self);
		return;
	}
	memset(stress.ops, 0, sizeof(stress.ops));
	stress.unexpected = 0;
	mem_cgroup_task_path(self, domain, sizeof(domain));
	if (cgroupfs_get_domain(domain, &memcg) == 0) {
		for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
			int pid = task_spawn(memcg, &stress_worker_program,
					     arg);

			if (pid > 0)
				workers[nr++] = pid;
		}
		mem_cgroup_put(memcg);
	}
	for (unsigned int i = 0; i < nr && !killed; i++) {
		if (task_wait(workers[i]) == -EINTR) {
			killed = true;
			stop_workers(workers + i, nr - i);
		}
	}
	/* Tasks killed by cgroup.kill leave as the reaper gets to them, and
	 * rmdir waits for that. A bomb whose limit another worker lifted
	 * can have filled memory with thousands of tasks, and on a busy
	 * host they take minutes to go: so the cleanup goes on for as long
	 * as tasks keep leaving, and gives up after CLEANUP_IDLE_MS in
	 * which none left. (A killed stress's sleeps end at once, so it
	 * tries again at once; the timer still gives the other tasks their
	 * turns.) */
	fewest = nr_tasks();
	end = uptime_ms() + CLEANUP_IDLE_MS;
	while (!(clean = cleanup()) && uptime_ms() < end) {
		msleep(10);
		if (nr_tasks() < fewest) {
			fewest = nr_tasks();
			end = uptime_ms() + CLEANUP_IDLE_MS;
		}
	}
	for (int op = 0; op < NR_OPS; op++)
		total += stress.ops[op];
	printk("stress: %ld s on %u CPUs: %lu operations, %lu unexpected "
	       "errors%s%s\n", seconds, nr, total, stress.unexpected,
	       killed ? "; killed before its time" : "",
	       clean ? "" : "; the stress tree could not be removed");
	printk("stress:");
	for (int op = 0; op < NR_OPS; op++)
		if (op_weight(op))
			printk(" %s %lu", op_name(op), stress.ops[op]);
	printk("\n");
	__atomic_store_n(&stress.running, false, __ATOMIC_RELEASE);
	kernel_leave(self);
}

/* --- the shell command -------------------------------------------------- */

static int cmd_stress(int argc, char **argv)
{
	struct mem_cgroup *memcg;
	int pid, ret;

	if (argc != 2 || stress_check(argv[1]) < 0)
		return shell_error(EINVAL, "usage: stress SECONDS (1 to %d)",
				   STRESS_SECONDS_MAX);
	ret = cgroupfs_get_domain(cgroupfs_root_path(), &memcg);
	if (ret < 0)
		return shell_error(ret, "no root domain");
	pid = task_spawn(memcg, program_find("stress"), argv[1]);
	mem_cgroup_put(memcg);
	if (pid < 0)
		return shell_error(-pid, "cannot start the stress task");
	ret = task_wait(pid);
	return ret < 0 ? shell_error(-ret, "task %d", pid) : 0;
}
SHELL_COMMAND(stress, "stress SECONDS",
	      "random domain and task operations on every CPU, then clean up");
