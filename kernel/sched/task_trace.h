/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/task_trace.h - the task: system's tracepoint (Linux:
 * include/trace/events/task.h); its recorder is in
 * kernel/sched/task_trace.c.
 */
#ifndef KERNEL_SCHED_TASK_TRACE_H
#define KERNEL_SCHED_TASK_TRACE_H

#include "kernel/base/tracepoint.h"

struct mem_cgroup;

/* task:task_fork_refused - a fork into memcg failed (recorded only when
 * err is negative). */
TRACEPOINT(task_fork_refused, trace_task_fork_refused,
	   (struct mem_cgroup *memcg, int err), (memcg, err))

#endif
