// SPDX-License-Identifier: MIT
/*
 * kernel/fs/proc_pid.c - /proc/PID: a directory per task, with
 *
 *   oom_score_adj   -1000..1000 (read and write): what the OOM killer adds
 *                   to the task's score, in thousandths of the domain's
 *                   limit; -1000: never chosen. A child starts with its
 *                   parent's. Out of range: EINVAL; not a number: EINVAL;
 *                   too large for an int: ERANGE (Linux's kstrtoint).
 *   cgroup          the task's domain (kernel/cgroup/cgroup_proc.c adds
 *                   it, with proc_pid_add_file)
 *
 * A directory is made the first time its PID is looked up (ctl_ops'
 * lookup), not at fork: making one for every task would cost every fork
 * three nodes and a lock, and change what a fork bomb is charged. So `ls
 * /proc` shows only the PIDs looked up since they were last cleared out.
 * The files name a PID, not a task: once it is reaped they read as ENOENT,
 * and each new lookup clears out the directories of PIDs with no task.
 */
#include "kernel/fs/proc.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/base/platform.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"

#define PROC_PID_FILES_MAX 4

static const struct ctl_ops oom_score_adj_ops;

/* The files of every /proc/PID, in the order ls shows them. */
static struct {
	const char *name;
	const struct ctl_ops *ops;
} pid_files[PROC_PID_FILES_MAX] = {
	{"oom_score_adj", &oom_score_adj_ops},
};
static size_t nr_pid_files = 1;

void proc_pid_add_file(const char *name, const struct ctl_ops *ops)
{
	if (nr_pid_files == PROC_PID_FILES_MAX)
		panic("proc_pid_add_file: more than %d files in /proc/PID",
		      PROC_PID_FILES_MAX);
	pid_files[nr_pid_files].name = name;
	pid_files[nr_pid_files].ops = ops;
	nr_pid_files++;
}

int proc_pid_of(struct ctl_node *file)
{
	return (int)(intptr_t)ctl_priv(file);
}

/* --- oom_score_adj ------------------------------------------------------- */

/* file_task - the task of the file's PID, with a reference; NULL (and
 * the explanation recorded) if it has been reaped. */
static struct task *file_task(struct ctl_node *file)
{
	struct task *task = task_get(proc_pid_of(file));

	if (!task)
		ctl_error(ENOENT, "no task %d (reaped)", proc_pid_of(file));
	return task;
}

static int oom_score_adj_read(struct ctl_node *file, char *buf, size_t size)
{
	struct task *task = file_task(file);
	int n;

	if (!task)
		return -ENOENT;
	n = snprintf(buf, size, "%d\n", READ_ONCE(task->oom_score_adj));
	task_put(task);
	return n;
}

/* parse_adj - an int as Linux's kstrtoint reads it (base 0, an optional
 * sign), blanks at either end stripped; then -1000..1000. */
static int parse_adj(const char *value, int *adj)
{
	char text[32], *start = text, *end;
	size_t len = strlen(value);
	long long v;

	if (len >= sizeof(text))
		return ctl_error(EINVAL, "write a number, -1000..1000");
	memcpy(text, value, len + 1);
	while (len > 0 && isspace((unsigned char)text[len - 1]))
		text[--len] = '\0';
	while (isspace((unsigned char)*start))
		start++;
	if (!*start)
		return ctl_error(EINVAL, "write a number, -1000..1000");
	errno = 0;
	v = strtoll(start, &end, 0);
	if (*end)
		return ctl_error(EINVAL, "'%s' is not a number", start);
	if (errno == ERANGE || v < INT32_MIN || v > INT32_MAX)
		return ctl_error(ERANGE, "'%s' does not fit in an int", start);
	if (v < -1000 || v > 1000)
		return ctl_error(EINVAL, "oom_score_adj is -1000..1000, not "
				 "%lld", v);
	*adj = (int)v;
	return 0;
}

static int oom_score_adj_write(struct ctl_node *file, const char *value)
{
	struct task *task;
	int adj = 0, ret = parse_adj(value, &adj);

	if (ret)
		return ret;
	task = file_task(file);
	if (!task)
		return -ENOENT;
	WRITE_ONCE(task->oom_score_adj, adj);
	task_put(task);
	return 0;
}

static const struct ctl_ops oom_score_adj_ops = {
	.read = oom_score_adj_read,
	.write = oom_score_adj_write,
};

/* --- the directories ----------------------------------------------------- */

/* A /proc/PID directory: no handlers, only this mark. */
static const struct ctl_ops pid_dir_ops = {0};

/* parse_pid - name[0..len) as a PID: digits, no leading zero. */
static bool parse_pid(const char *name, size_t len, int *pid)
{
	long v = 0;

	if (len == 0 || len > 9 || name[0] == '0')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)name[i]))
			return false;
		v = v * 10 + (name[i] - '0');
	}
	*pid = (int)v;
	return true;
}

static bool task_exists(int pid)
{
	struct task *task = task_get(pid);

	if (task)
		task_put(task);
	return task != NULL;
}

/* clear_out - remove the directories of PIDs that have no task. */
static void clear_out(struct ctl_node *proc)
{
	struct ctl_node *node = ctl_first_child(proc), *next;

	for (; node; node = next) {
		next = ctl_next_sibling(node);
		if (ctl_ops(node) == &pid_dir_ops &&
		    !task_exists(proc_pid_of(node)))
			ctl_remove(node);
	}
}

/* proc_lookup - /proc's lookup: make the directory of a PID that has a
 * task (called with the tree lock held, as every handler). */
static struct ctl_node *proc_lookup(struct ctl_node *proc, const char *name,
				    size_t len)
{
	struct ctl_node *dir;
	char text[16];
	int pid;

	if (!parse_pid(name, len, &pid) || !task_exists(pid))
		return NULL;
	clear_out(proc);
	snprintf(text, sizeof(text), "%d", pid);
	dir = ctl_create_dir(proc, text, &pid_dir_ops, (void *)(intptr_t)pid);
	if (!dir)
		return NULL;
	for (size_t i = 0; i < nr_pid_files; i++) {
		if (!ctl_create_file(dir, pid_files[i].name, pid_files[i].ops,
				     (void *)(intptr_t)pid)) {
			ctl_remove(dir);
			return NULL;
		}
	}
	return dir;
}

const struct ctl_ops proc_root_ops = {.lookup = proc_lookup};
