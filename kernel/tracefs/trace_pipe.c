// SPDX-License-Identifier: MIT
/*
 * kernel/tracefs/trace_pipe.c - the shell command trace_pipe: print the
 * trace's entries as they are recorded, taking each out of its ring, until
 * a key is pressed (Linux: reading /sys/kernel/tracing/trace_pipe, which
 * blocks for more and consumes what it returns; Ctrl-C stops cat there).
 *
 * A command, not a file: tally's `cat` reads a file to its end, and a file
 * that never ends would hang it (and every script or test that reads every
 * file). The command owns the console while it runs: it polls for input
 * between batches of entries, and the first byte typed - any key - stops
 * it and is swallowed. A line feed is not a key: it is the second half of
 * the CR LF that ended the `trace_pipe` line on some terminals.
 */
#include <errno.h>

#include "kernel/base/platform.h"
#include "kernel/printk/console.h"
#include "kernel/base/shell_command.h"
#include "kernel/time/time.h"
#include "kernel/trace/trace.h"
#include "kernel/tracefs/tracefs.h"

static struct trace_entry pipe_entry;
static char pipe_line[320];

static int cmd_trace_pipe(int argc, char **argv)
{
	unsigned long shown = 0;

	if (argc != 1)
		return shell_error(EINVAL, "too many arguments (usage: "
				   "trace_pipe)");
	printk("trace_pipe: printing events as they come; press any key "
	       "to stop\n");
	for (;;) {
		/* A batch, then a look at the keyboard. */
		for (int i = 0; i < 64 && trace_next(NULL, true, &pipe_entry);
		     i++) {
			trace_format(&pipe_entry, pipe_line, sizeof(pipe_line));
			printk("%s", pipe_line);
			shown++;
		}
		if (console_input_pending()) {
			int c = console_getc();

			if (c != '\n')
				break;
			continue;
		}
		msleep(10);
	}
	printk("trace_pipe: stopped after %lu events\n", shown);
	return 0;
}
SHELL_COMMAND(trace_pipe, "trace_pipe",
	      "print trace events as they happen, until a key is pressed");
