// SPDX-License-Identifier: MIT
/*
 * kernel/shell/cmd_tasks.c - the shell's task commands (SPEC 7.3):
 *
 *   run DOMAIN PROGRAM [ARGS]   start a task; prints "pid N"
 *   ps                          one line per task
 *   kill PID                    kill a task
 *   wait PID                    wait for a task to exit, and reap it
 *
 * DOMAIN is a path under /cgroup ("/cgroup/A"), or one relative to
 * /cgroup ("A", "A/B"); "/cgroup" itself is the root domain.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/exit.h"
#include "kernel/fork.h"
#include "kernel/lib/memparse.h"
#include "kernel/platform.h"
#include "kernel/programs/program.h"
#include "kernel/shell/shell_command.h"
#include "kernel/task.h"
#include "kernel/task_ops.h"
#include "kernel/task_table.h"
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
	int n, ret;

	if (argc < 3)
		return shell_error(EINVAL, "usage: run DOMAIN PROGRAM [ARGS]");
	if (argv[1][0] == '/')
		n = snprintf(path, sizeof(path), "%s", argv[1]);
	else
		n = snprintf(path, sizeof(path), "/cgroup/%s", argv[1]);
	if (n < 0 || (size_t)n >= sizeof(path))
		return shell_error(E2BIG, "domain path too long");
	prog = program_find(argv[2]);
	if (!prog)
		return shell_error(ENOENT, "no program '%s' (spin, worker, "
				   "forkbomb, hog, cache, kmemhog, mkdirloop, stress)", argv[2]);
	ret = join_args(argc, argv, 3, arg, sizeof(arg));
	if (ret < 0)
		return ret;
	if (prog->check_arg && prog->check_arg(arg) < 0)
		return shell_error(EINVAL, "bad argument '%s' (usage: %s)", arg,
				   prog->usage);
	ret = cgroupfs_get_domain(path, &memcg);
	if (ret < 0)
		return shell_error(ret, "%s is not a domain", path);
	ret = task_spawn(memcg, prog, arg);
	if (ret == -ENOMEM) {
		mem_cgroup_path(memcg, path, sizeof(path));
		mem_cgroup_put(memcg);
		return shell_error(ENOMEM, "no %lu KiB kernel stack or task "
				   "struct for a task in %s: out of memory, "
				   "or over the domain's limit",
				   THREAD_SIZE / 1024, path);
	}
	mem_cgroup_put(memcg);
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

static int cmd_ps(int argc, char **argv)
{
	char domain[MEMCG_PATH_MAX];
	struct task **tasks;
	size_t nr;

	if (argc > 1)
		return shell_error(EINVAL, "usage: ps");
	tasks = task_snapshot(&nr);
	if (!tasks)
		return shell_error(ENOMEM, "no memory to list the tasks");
	printk("PID  DOMAIN      CPU  STATE  PROG      WORK\n");
	for (size_t i = 0; i < nr; i++) {
		struct task *task = tasks[i];

		mem_cgroup_task_path(task, domain, sizeof(domain));
		printk("%-4d %-11s %-4u %-6s %-9s %llu\n", task->pid, domain,
		       READ_ONCE(task->cpu), state_name(task), task->comm,
		       (unsigned long long)task->work);
	}
	task_snapshot_put(tasks, nr);
	return 0;
}
SHELL_COMMAND(ps, "ps", "list the tasks: PID DOMAIN CPU STATE PROG WORK");

/* get_pid_arg - the task named by argv[1], with a reference. */
static int get_pid_arg(int argc, char **argv, struct task **out)
{
	long pid;

	if (argc != 2)
		return shell_error(EINVAL, "usage: %s PID", argv[0]);
	if (parse_int(argv[1], &pid) < 0 || pid < 0 || pid >= PID_MAX)
		return shell_error(EINVAL, "'%s' is not a PID", argv[1]);
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
SHELL_COMMAND(kill, "kill PID", "kill a task (it stays a zombie until wait)");

static int cmd_wait(int argc, char **argv)
{
	struct task *task;
	int pid, ret = get_pid_arg(argc, argv, &task);

	if (ret < 0)
		return ret;
	pid = task->pid;
	task_put(task);
	ret = task_wait(pid);
	if (ret == -ESRCH)
		return shell_error(ESRCH, "no task %d", pid);
	if (ret == -EPERM)
		return shell_error(EPERM, "task %d is a system task: it never "
				   "exits", pid);
	return ret;
}
/* NOLINTEND(clang-analyzer-core.NullDereference) */
SHELL_COMMAND(wait, "wait PID", "wait until a task exits, and reap it");
