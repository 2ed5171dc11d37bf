/* SPDX-License-Identifier: MIT */
/*
 * kernel/tracefs/tracefs.h - the tracer's face: the control files of
 * /sys/kernel/tracing (trace_fs.c), the shell command trace_pipe
 * (trace_pipe.c), and the line each entry prints as (trace_output.c).
 * Linux: fs/tracefs/ and kernel/trace/trace_output.c.
 *
 * The tracer itself (kernel/trace/) sits below the memory code; this
 * folder sits above the control-file tree, the console and the
 * allocator it uses.
 */
#ifndef KERNEL_TRACEFS_TRACEFS_H
#define KERNEL_TRACEFS_TRACEFS_H

#include <stddef.h>

struct trace_entry;

/* trace_fs_init - at boot, after trace_init: the directory
 * /sys/kernel/tracing. The rings are allocated, and handed to the
 * tracer, when the first event is turned on. */
void trace_fs_init(void);

/* trace_format - one line of the trace, with its newline:
 *   "      spin-7       [001]    12.345678: mm_page_alloc: order=0 ..."
 * (the task name right-aligned; shortened here). */
void trace_format(const struct trace_entry *e, char *buf, size_t size);

#endif
