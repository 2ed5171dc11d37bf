/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/shell_command.h - how a subsystem adds a command to the shell.
 *
 *   static int cmd_ps(int argc, char **argv) { ... return 0; }
 *   SHELL_COMMAND(ps, "ps", "list tasks");
 *
 * A command prints its output with printk and returns 0, or a negative
 * errno after printing nothing: the shell then prints the one line
 * "error: ENAME: explanation" with the explanation from shell_error().
 */
#ifndef KERNEL_SHELL_COMMAND_H
#define KERNEL_SHELL_COMMAND_H

#include "kernel/base/section_table.h"

struct shell_command {
	const char *name;
	const char *usage;  /* "ps", "run DOMAIN PROGRAM [ARGS]" */
	const char *help;   /* one line */
	int (*fn)(int argc, char **argv);
};

#define SHELL_COMMAND(ident, usage_, help_) \
	static const struct shell_command shell_command_##ident \
		SECTION_TABLE_ENTRY(shell_commands) = \
		{#ident, usage_, help_, cmd_##ident}

/*
 * shell_error - set the explanation printed after "error: ENAME: " and
 * return -err, so a command can write: return shell_error(EINVAL, "...").
 */
int shell_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
