/* SPDX-License-Identifier: MIT */
/*
 * kernel/shell/jobs.h - the shell's jobs: the tasks it started with `run`
 * (docs/interface.md), reaped as a Unix shell reaps its background jobs.
 *
 * A job's task is started with task_spawn_job (kernel/sched/fork.h): when it
 * ends, the reaper reaps it - so that nothing of it, not even a zombie's
 * struct, keeps its domain alive - and calls job_reaped(). The shell then
 * prints one line, before its next prompt,
 *
 *     [pid N exited]        it returned from its program
 *     [pid N killed]        it was killed (kill, cgroup.kill, the OOM killer)
 *
 * or at once if it is waiting for input (job_reaped kicks the console, and
 * the console makes room for the line: kernel/printk/console.h). A job
 * that `wait PID` waited for is not reported: the wait was the report.
 * The ends of the last JOBS_DONE_KEPT jobs are remembered, so that `wait
 * PID` on a job that has already ended answers at once.
 *
 * The table is kept under a spinlock: job_reaped comes from the reaper
 * task, the rest from the shell.
 */
#ifndef KERNEL_SHELL_JOBS_H
#define KERNEL_SHELL_JOBS_H

#include <stdbool.h>

/* Ended jobs remembered for `wait` after they have been reported. */
#define JOBS_DONE_KEPT 64

struct job;

/* job_new - a record for a job about to be started; NULL if out of
 * memory. Pass it to task_spawn_job with job_reaped, then call
 * job_started with what task_spawn_job returned. */
struct job *job_new(void);

/* job_started - pid is the job's PID, or a negative errno: the task was
 * not made, and the record is freed. */
void job_started(struct job *job, int pid);

/* job_reaped - the on_reap of task_spawn_job (data is the job): record
 * how the job ended and wake the shell. Never sleeps. */
void job_reaped(void *data, int pid, bool killed);

enum job_state {
	JOB_NONE,      /* not a job of the shell (or one long forgotten) */
	JOB_RUNNING,   /* started, not yet reaped */
	JOB_ENDED,     /* reaped */
};

/* job_state - what the shell knows of the job with this PID. */
enum job_state job_state(int pid);

/* job_waited - `wait PID` has seen the job end: it is not reported. */
void job_waited(int pid);

/* jobs_report - print the notice of every job that ended and has not
 * been reported, oldest first, and forget the oldest ended jobs past
 * JOBS_DONE_KEPT. Returns how many notices it printed. */
int jobs_report(void);

#endif
