// SPDX-License-Identifier: MIT
/*
 * kernel/shell/jobs.c - the shell's job table (see kernel/shell/jobs.h).
 *
 * One list, in the order the jobs were started. A record is made before
 * its task exists (the task may end, and be reaped, before task_spawn_job
 * has returned its PID: job_reaped fills the PID in itself), and freed by
 * the shell once it has been reported and is older than the last
 * JOBS_DONE_KEPT ended jobs. The reaper touches a record only in
 * job_reaped, once, before it can be reported: so it is never freed under
 * the reaper.
 */
#include "kernel/shell/jobs.h"

#include <stdio.h>
#include <string.h>

#include "kernel/base/list.h"
#include "kernel/base/spinlock.h"
#include "kernel/base/platform.h"
#include "kernel/printk/console.h"
#include "mm/slab.h"

struct job {
	struct list_head node;  /* on jobs, oldest first */
	int pid;                /* 0 until known */
	bool ended;             /* reaped (job_reaped) */
	bool killed;            /* ... and it had been killed */
	bool reported;          /* its notice printed, or wait saw it end */
};

static LIST_HEAD(jobs);
static spinlock_t jobs_lock = SPINLOCK_INIT;  /* interrupts off */

struct job *job_new(void)
{
	struct job *job = kmalloc(sizeof(*job), GFP_KERNEL);
	unsigned long flags;

	if (!job)
		return NULL;
	job->pid = 0;
	job->ended = job->killed = job->reported = false;
	flags = spin_lock_irqsave(&jobs_lock);
	list_add_tail(&job->node, &jobs);
	spin_unlock_irqrestore(&jobs_lock, flags);
	return job;
}

/* find - the newest record of pid (a PID may come back after a wrap).
 * jobs_lock held. */
static struct job *find(int pid)
{
	struct job *job, *newest = NULL;

	if (pid <= 0)
		return NULL;  /* (0: a record whose PID is not known yet) */
	list_for_each_entry(job, &jobs, node)
		if (job->pid == pid)
			newest = job;
	return newest;
}

void job_started(struct job *job, int pid)
{
	unsigned long flags = spin_lock_irqsave(&jobs_lock);

	if (pid < 0) {
		list_del_init(&job->node);
		spin_unlock_irqrestore(&jobs_lock, flags);
		kfree(job);
		return;
	}
	job->pid = pid;  /* (job_reaped may have set it already) */
	spin_unlock_irqrestore(&jobs_lock, flags);
}

void job_reaped(void *data, int pid, bool killed)
{
	struct job *job = data;
	unsigned long flags = spin_lock_irqsave(&jobs_lock);

	job->pid = pid;
	job->killed = killed;
	job->ended = true;
	spin_unlock_irqrestore(&jobs_lock, flags);
	console_kick();  /* the shell may be waiting for input */
}

enum job_state job_state(int pid)
{
	unsigned long flags = spin_lock_irqsave(&jobs_lock);
	struct job *job = find(pid);
	enum job_state state = JOB_NONE;

	if (job)
		state = job->ended ? JOB_ENDED : JOB_RUNNING;
	spin_unlock_irqrestore(&jobs_lock, flags);
	return state;
}

void job_waited(int pid)
{
	unsigned long flags = spin_lock_irqsave(&jobs_lock);
	struct job *job = find(pid);

	if (job)
		job->reported = true;
	spin_unlock_irqrestore(&jobs_lock, flags);
}

/* next_notice - the oldest ended job not yet reported, marked reported,
 * into buf; false if none. */
static bool next_notice(char *buf, size_t size)
{
	unsigned long flags = spin_lock_irqsave(&jobs_lock);
	struct job *job;
	bool found = false;

	list_for_each_entry(job, &jobs, node) {
		if (job->ended && !job->reported) {
			job->reported = true;
			snprintf(buf, size, "[pid %d %s]\n", job->pid,
				 job->killed ? "killed" : "exited");
			found = true;
			break;
		}
	}
	spin_unlock_irqrestore(&jobs_lock, flags);
	return found;
}

/* forget_old - free the reported records older than the last
 * JOBS_DONE_KEPT ended ones. */
static void forget_old(void)
{
	LIST_HEAD(old);
	struct job *job, *next;
	unsigned long flags = spin_lock_irqsave(&jobs_lock);
	int done = 0;

	list_for_each_entry(job, &jobs, node)
		done += job->ended && job->reported;
	list_for_each_entry_safe(job, next, &jobs, node) {
		if (done <= JOBS_DONE_KEPT)
			break;
		if (job->ended && job->reported) {
			list_del_init(&job->node);
			list_add(&job->node, &old);
			done--;
		}
	}
	spin_unlock_irqrestore(&jobs_lock, flags);
	list_for_each_entry_safe(job, next, &old, node)
		kfree(job);
}

int jobs_report(void)
{
	/* Notices go out together, in one message: while the shell waits
	 * for input, the console then makes room for them once. */
	char buf[512];
	size_t len = 0;
	int n = 0;

	for (;;) {
		char line[48];
		bool more = next_notice(line, sizeof(line));

		if (len && (!more || len + strlen(line) >= sizeof(buf))) {
			printk("%s", buf);
			len = 0;
		}
		if (!more)
			break;
		len += snprintf(buf + len, sizeof(buf) - len, "%s", line);
		n++;
	}
	forget_old();
	return n;
}
