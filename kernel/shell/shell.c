// SPDX-License-Identifier: MIT
/*
 * kernel/shell/shell.c - the shell: prompt, read a line, split it into words,
 * find the command, run it, report its error.
 *
 * Commands live in the shell_commands section table: each subsystem adds
 * its own with SHELL_COMMAND() (kernel/base/shell_command.h); the built-in ones
 * are in kernel/shell/shell_builtins.c. A command that fails returns a negative
 * errno after calling shell_error() with an explanation, and the shell
 * prints the single line
 *
 *     error: ENAME: explanation
 *
 * The shell also keeps the current directory, as a path rather than a
 * node: a directory can be removed by another task at any time (an rmdir
 * of a domain), and a path that no longer resolves is harmless.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel/printk/console.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/lib/errno_name.h"
#include "kernel/base/platform.h"
#include "kernel/shell/shell.h"
#include "kernel/shell/jobs.h"
#include "kernel/base/shell_command.h"
#include "kernel/shell/shell_line.h"

static struct shell_line shell_line;
static char shell_cwd_path[CTL_PATH_MAX] = "/";
/* The explanation of the failure of the command running now. */
static char shell_why[CTL_WHY_MAX];
/* Every '>' on a line becomes this word. */
static char shell_redirect[] = ">";

int shell_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(shell_why, sizeof(shell_why), fmt, ap);
	va_end(ap);
	return err < 0 ? err : -err;
}

const char *shell_cwd(void)
{
	return shell_cwd_path;
}

int shell_abspath(const char *path, char *buf, size_t size)
{
	const char *sep = "/";
	int n;

	if (path[0] == '/' || shell_cwd_path[strlen(shell_cwd_path) - 1] == '/')
		sep = "";
	if (path[0] == '/')
		n = snprintf(buf, size, "%s", path);
	else
		n = snprintf(buf, size, "%s%s%s", shell_cwd_path, sep, path);
	if (n < 0 || (size_t)n >= size)
		return shell_error(E2BIG, "path longer than %zu bytes",
				   size - 1);
	return 0;
}

int shell_chdir(const char *path)
{
	char abs[SHELL_PATH_MAX], canonical[CTL_PATH_MAX], why[CTL_WHY_MAX];
	bool is_dir;
	int ret;

	ret = shell_abspath(path, abs, sizeof(abs));
	if (ret < 0)
		return ret;
	ret = ctl_stat(abs, canonical, sizeof(canonical), &is_dir, why);
	if (ret < 0)
		return shell_error(ret, "%s", why);
	if (!is_dir)
		return shell_error(ENOTDIR, "%s is not a directory", abs);
	memcpy(shell_cwd_path, canonical, sizeof(shell_cwd_path));
	return 0;
}

/* report - print the one error line for err, with the explanation. */
static void report(int err)
{
	const char *name = errno_name(err);
	const char *text = errno_text(err);
	char why[CTL_WHY_MAX];

	/* One line: an explanation never carries a newline or control byte. */
	for (size_t i = 0; i < sizeof(why); i++) {
		char c = shell_why[i];

		why[i] = (c && (c < ' ' || c > '~')) ? ' ' : c;
	}
	why[sizeof(why) - 1] = '\0';
	if (!why[0] && text)
		snprintf(why, sizeof(why), "%s", text);
	if (!name)  /* not one of the names the protocol allows */
		printk("error: EINVAL: error %d: %s\n", err, why);
	else
		printk("error: %s: %s\n", name, why);
}

/*
 * split - cut line into words in place: spaces and tabs separate words,
 * and each '>' is a word of its own (shell_redirect). Returns the number of
 * words, or shell_error(E2BIG) if there are more than max.
 */
static int split(char *line, char **argv, int max)
{
	int argc = 0;
	bool in_word = false;

	for (char *p = line; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' ||
		    *p == '>') {
			bool redirect = *p == '>';

			*p = '\0';
			in_word = false;
			if (!redirect)
				continue;
			if (argc == max)
				return shell_error(E2BIG, "more than %d words",
						   max);
			argv[argc++] = shell_redirect;
		} else if (!in_word) {
			if (argc == max)
				return shell_error(E2BIG, "more than %d words",
						   max);
			argv[argc++] = p;
			in_word = true;
		}
	}
	argv[argc] = NULL;
	return argc;
}

/* find_command - the entry of the shell_commands table called name. */
static const struct shell_command *find_command(const char *name)
{
	section_table_for_each(const struct shell_command, shell_commands, cmd)
		if (strcmp(cmd->name, name) == 0)
			return cmd;
	return NULL;
}

static bool has_redirect(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (argv[i] == shell_redirect)
			return true;
	return false;
}

int shell_execute(char *line)
{
	char *argv[SHELL_ARGS_MAX + 1];
	const struct shell_command *cmd;
	int argc, ret;

	shell_why[0] = '\0';
	if (strlen(line) > SHELL_LINE_MAX) {
		ret = shell_error(E2BIG, "line longer than %d bytes",
				  SHELL_LINE_MAX);
		goto out;
	}
	argc = split(line, argv, SHELL_ARGS_MAX);
	if (argc <= 0) {
		ret = argc;  /* 0: an empty line */
		goto out;
	}
	cmd = find_command(argv[0]);
	if (!cmd) {
		ret = shell_error(ENOENT, "unknown command '%s' (try help)",
				  argv[0]);
		goto out;
	}
	if (has_redirect(argc, argv) && strcmp(cmd->name, "echo") != 0) {
		ret = shell_error(EINVAL,
			"only echo writes to a file: echo VALUE > FILE");
		goto out;
	}
	ret = cmd->fn(argc, argv);
	if (ret > 0)
		ret = 0;
out:
	if (ret < 0)
		report(ret);
	return ret;
}

/* prompt - the prompt, starting the console's edit line (a message from
 * elsewhere is then followed by the prompt again). */
static void prompt(void)
{
	char text[CTL_PATH_MAX + 16];

	snprintf(text, sizeof(text), "tally:%s# ", shell_cwd_path);
	console_edit_begin(text);
}

/* feed - one input byte; true when a line ended (and was run). */
static bool feed(int c)
{
	int ret = shell_line_feed(&shell_line, c);

	if (ret == SHELL_LINE_MORE)
		return false;
	if (ret == -E2BIG) {
		shell_error(E2BIG, "line longer than %d bytes", SHELL_LINE_MAX);
		report(-E2BIG);
	} else {
		shell_execute(shell_line.buf);
	}
	return true;
}

/*
 * The shell's jobs (kernel/shell/jobs.h) that have ended are reported
 * before each prompt - those that ended while a command ran - and, while
 * the shell waits for input, as soon as they end: the reaper kicks the
 * console (CONSOLE_KICKED), and the console puts the notice on a line of
 * its own and the prompt and the typed line after it.
 */
void shell_run(void)
{
	shell_line_reset(&shell_line);
	jobs_report();
	prompt();
	for (;;) {
		int c = console_getc();

		if (c == CONSOLE_KICKED) {
			jobs_report();
			continue;
		}
		if (c < 0)
			return;
		if (feed(c)) {
			jobs_report();
			prompt();
		}
	}
}

void shell_run_script(const char *const *lines)
{
	shell_line_reset(&shell_line);
	for (; *lines; lines++) {
		jobs_report();
		prompt();
		for (const char *p = *lines; *p; p++)
			feed((unsigned char)*p);
		feed('\n');
	}
}
