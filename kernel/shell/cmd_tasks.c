// SPDX-License-Identifier: MIT
/*
 * kernel/shell/cmd_tasks.c - the shell's task commands (docs/interface.md):
 *
 *   run DOMAIN PROGRAM [ARGS]   start a task, a job of the shell
 *                               (kernel/shell/jobs.h); prints "pid N"
 *   ps                          one line per task
 *   kill PID                    kill a task
 *   wait PID                    wait for a task to end
 *
 * DOMAIN is a path under /cgroup ("/cgroup/A"), or one relative to
 * /cgroup ("A", "A/B"); "/cgroup" itself is the root domain.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/fork.h"
#include "kernel/lib/memparse.h"
#include "kernel/base/platform.h"
#include "kernel/sched/program.h"
#include "kernel/shell/jobs.h"
#include "kernel/base/shell_command.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "kernel/sched/task_table.h"
#include "mm/memcg/memcontrol.h"

/* join_args - argv[from..argc-1] joined by single spaces into buf. */
static int join_args(int argc, char **argv, int from, char *buf,
		     size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = from; i < argc; i++) {
		int n = snprintf(buf + len, size - len, "%s%s",
				 i > from ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= size - len)
			return shell_error(E2BIG, "arguments longer than %zu "
					   "bytes", size - 1);
		len += n;
	}
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	char path[CTL_PATH_MAX], arg[TASK_ARG_MAX];
	const struct program *prog;
	struct mem_cgroup *memcg;
	struct job *job;
	int n, ret;

	if (argc < 3)
		return shell_error(EINVAL, "usage: run DOMAIN PROGRAM [ARGS]");
	if (argv[1][0] == '/')
		n = snprintf(path, sizeof(path), "%s", argv[1]);
	else
		n = snprintf(path, sizeof(path), "%s/%s",
			     cgroupfs_root_path(), argv[1]);
	if (n < 0 || (size_t)n >= sizeof(path))
		return shell_error(E2BIG, "domain path too long");
	prog = program_find(argv[2]);
	if (!prog)
		return shell_error(
			ENOENT,
			"no program '%s' (spin, worker, "
			"forkbomb, hog, cache, kmemhog, mkdirloop, stress)",
			argv[2]);
	ret = join_args(argc, argv, 3, arg, sizeof(arg));
	if (ret < 0)
		return ret;
	if (prog->check_arg && prog->check_arg(arg) < 0)
		return shell_error(EINVAL, "bad argument '%s' (usage: %s)", arg,
				   prog->usage);
	ret = cgroupfs_get_domain(path, &memcg);
	if (ret == -EBUSY)
		return shell_error(EBUSY, "%s enables controllers for its "
				   "children: no internal processes", path);
	if (ret < 0)
		return shell_error(ret, "%s is not a domain", path);
	job = job_new();
	if (!job) {
		mem_cgroup_put(memcg);
		return shell_error(ENOMEM, "no memory for the job's record");
	}
	ret = task_spawn_job(memcg, prog, arg, job_reaped, job);
	job_started(job, ret);
	if (ret == -ENOMEM) {
		mem_cgroup_path(memcg, path, sizeof(path));
		mem_cgroup_put(memcg);
		return shell_error(ENOMEM, "no %lu KiB kernel stack or task "
				   "struct for a task in %s: out of memory, "
				   "or over the domain's limit",
				   THREAD_SIZE / 1024, path);
	}
	mem_cgroup_put(memcg);
	if (ret == -EAGAIN)
		return shell_error(EAGAIN, "%s or an ancestor is at its "
				   "pids.max: the fork is refused", path);
	if (ret < 0)
		return shell_error(ret, "%s is being removed", path);
	printk("pid %d\n", ret);
	return 0;
}
SHELL_COMMAND(run, "run DOMAIN PROGRAM [ARGS]",
	      "start a task running PROGRAM in DOMAIN (/cgroup/A, or A)");

static const char *state_name(const struct task *task)
{
	switch (READ_ONCE(task->state)) {
	case TASK_SLEEPING:
		return "S";
	case TASK_ZOMBIE:
		return "Z";
	default:
		return "R";  /* running, runnable, or about to be */
	}
}

/* The columns of ps (docs/interface.md), and the least width of each: a
 * column is widened to its longest value, so that every line stays
 * aligned. */
enum { PS_PID, PS_DOMAIN, PS_CPU, PS_STATE, PS_PROG, PS_COLUMNS };
static const char *const ps_header[PS_COLUMNS] = {
	"PID", "DOMAIN", "CPU", "STATE", "PROG"};
static const int ps_min_width[PS_COLUMNS] = {4, 11, 4, 6, 9};

/* ps_row - the first five columns of a task's line, as strings. */
static void ps_row(struct task *task, char cols[PS_COLUMNS][MEMCG_PATH_MAX])
{
	snprintf(cols[PS_PID], MEMCG_PATH_MAX, "%d", task->pid);
	mem_cgroup_task_path(task, cols[PS_DOMAIN], MEMCG_PATH_MAX);
	snprintf(cols[PS_CPU], MEMCG_PATH_MAX, "%u", READ_ONCE(task->cpu));
	snprintf(cols[PS_STATE], MEMCG_PATH_MAX, "%s", state_name(task));
	snprintf(cols[PS_PROG], MEMCG_PATH_MAX, "%s", task->comm);
}

/* ps_line - one line: the five columns padded to their widths, WORK last. */
static void ps_line(char cols[PS_COLUMNS][MEMCG_PATH_MAX],
		    const int width[PS_COLUMNS], const char *work)
{
	printk("%-*s %-*s %-*s %-*s %-*s %s\n", width[0], cols[0], width[1],
	       cols[1], width[2], cols[2], width[3], cols[3], width[4], cols[4],
	       work);
}

static int cmd_ps(int argc, char **argv)
{
	static char cols[PS_COLUMNS][MEMCG_PATH_MAX];  /* there is one shell */
	int width[PS_COLUMNS];
	char work[24];
	struct task **tasks;
	size_t nr;

	if (argc > 1)
		return shell_error(EINVAL, "usage: ps");
	tasks = task_snapshot(&nr);
	if (!tasks)
		return shell_error(ENOMEM, "no memory to list the tasks");
	/* Two passes: the widths first. (A task may move to a domain with a
	 * longer name between the passes: its value then overflows its
	 * column, but a space still separates it from the next.) */
	for (int c = 0; c < PS_COLUMNS; c++)
		width[c] = ps_min_width[c];
	for (size_t i = 0; i < nr; i++) {
		ps_row(tasks[i], cols);
		for (int c = 0; c < PS_COLUMNS; c++)
			if ((int)strlen(cols[c]) > width[c])
				width[c] = (int)strlen(cols[c]);
	}
	for (int c = 0; c < PS_COLUMNS; c++)
		snprintf(cols[c], MEMCG_PATH_MAX, "%s", ps_header[c]);
	ps_line(cols, width, "WORK");
	for (size_t i = 0; i < nr; i++) {
		ps_row(tasks[i], cols);
		snprintf(work, sizeof(work), "%llu",
			 (unsigned long long)tasks[i]->work);
		ps_line(cols, width, work);
	}
	task_snapshot_put(tasks, nr);
	return 0;
}
SHELL_COMMAND(ps, "ps", "list the tasks: PID DOMAIN CPU STATE PROG WORK");

/*
 * parse_pid - argv[1] of kill and wait. Not a number: EINVAL. A number -
 * decimal digits, however many - that names no task: ESRCH, as kill(2)
 * says; PIDs at or past PID_MAX name none. Returns 0 with *pid set (then
 * below PID_MAX), or the error, explained.
 */
static int parse_pid(const char *arg, long *pid)
{
	bool digits = arg[0] != '\0';

	for (const char *p = arg; *p; p++)
		if (*p < '0' || *p > '9')
			digits = false;
	if (!digits)
		return shell_error(EINVAL, "'%s' is not a PID", arg);
	if (parse_int(arg, pid) < 0 || *pid >= PID_MAX)
		return shell_error(ESRCH, "no task %s (PIDs are below %d)",
				   arg, PID_MAX);
	return 0;
}

/* get_pid_arg - the task named by argv[1], with a reference. */
static int get_pid_arg(int argc, char **argv, struct task **out)
{
	long pid;
	int ret;

	if (argc != 2)
		return shell_error(EINVAL, "usage: %s PID", argv[0]);
	ret = parse_pid(argv[1], &pid);
	if (ret < 0)
		return ret;
	*out = task_get((int)pid);
	if (!*out)
		return shell_error(ESRCH, "no task %ld", pid);
	return 0;
}

/* shell_error() returns -errno, which the analyser cannot see from here:
 * it would follow a failed get_pid_arg into a task never set.
 * NOLINTBEGIN(clang-analyzer-core.NullDereference) */
static int cmd_kill(int argc, char **argv)
{
	struct task *task;
	int ret = get_pid_arg(argc, argv, &task);

	if (ret < 0)
		return ret;
	if (task->flags & TASK_SYSTEM) {
		ret = shell_error(EPERM, "task %d (%s) is a system task",
				  task->pid, task->comm);
	} else {
		task_kill_user(task);
	}
	task_put(task);
	return ret;
}
SHELL_COMMAND(kill, "kill PID",
	      "kill a task; the shell reports its job's end: [pid N killed]");

/*
 * wait PID: a job of the shell that is still running is waited for, and
 * then not reported (the wait was the report); one that has ended answers
 * at once. Any other task (a fork bomb's child) is waited for as well.
 */
static int cmd_wait(int argc, char **argv)
{
	struct task *task;
	long pid = 0;  /* set by parse_pid; clang-tidy cannot see it */
	int ret;

	if (argc != 2)
		return shell_error(EINVAL, "usage: wait PID");
	ret = parse_pid(argv[1], &pid);
	if (ret < 0)
		return ret;
	if (job_state(pid) == JOB_ENDED) {
		job_waited(pid);
		return 0;
	}
	task = task_get((int)pid);
	if (!task && job_state(pid) != JOB_NONE) {
		job_waited(pid);  /* a job, reaped since we looked */
		return 0;
	}
	if (!task)
		return shell_error(ESRCH, "no task %ld", pid);
	task_put(task);
	ret = task_wait((int)pid);
	if (ret == -ESRCH && job_state(pid) != JOB_NONE)
		ret = 0;  /* a job, reaped meanwhile by the reaper */
	if (ret == 0)
		job_waited(pid);
	if (ret == -ESRCH)
		return shell_error(ESRCH, "no task %ld", pid);
	if (ret == -EPERM)
		return shell_error(EPERM, "task %ld is a system task: it never "
				   "exits", pid);
	return ret;
}
/* NOLINTEND(clang-analyzer-core.NullDereference) */
SHELL_COMMAND(wait, "wait PID", "wait until a task ends (at once if it has)");
