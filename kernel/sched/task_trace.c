// SPDX-License-Identifier: MIT
/*
 * kernel/sched/task_trace.c - task:task_fork_refused: its definition,
 * recorder and how it prints (kernel/trace/trace_event.h).
 */
#include "kernel/sched/task_trace.h"

#include <stdio.h>

#include "arch/x86_64/asm/tracepoint.h"
#include "kernel/lib/errno_name.h"
#include "kernel/trace/trace_event.h"
#include "mm/memcg/memcg_trace.h"

static void print_task_fork_refused(const struct trace_entry *e, char *buf,
				    size_t size)
{
	snprintf(buf, size, "domain=%s err=%s", e->domain,
		 errno_name((int)e->arg[0]));
}

TRACE_EVENT_DEFINE(task, task_fork_refused, 08, print_task_fork_refused);

TRACE_THUNK(__trace_task_fork_refused);

void __trace_task_fork_refused(struct mem_cgroup *memcg, int err)
{
	unsigned long flags;
	struct trace_entry *e;

	if (err >= 0)
		return;  /* the fork worked */
	e = trace_record_begin(&trace_event_task_fork_refused, &flags);
	if (!e)
		return;
	e->arg[0] = (uint64_t)-err;
	memcg_trace_set_domain(e, memcg);
	trace_record_end(flags);
}
