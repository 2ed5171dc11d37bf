// SPDX-License-Identifier: MIT
/*
 * kernel/shell/shell_builtins.c - the shell's own commands: help, ls, cd, pwd,
 * cat, echo, mkdir, rmdir, sleep, poweroff, reboot.
 *
 * Each command checks its arguments first (EINVAL, with the usage, and
 * nothing done), then does its work through the path operations of the
 * control tree (kernel/fs/ctlfs.h), which copy what they find: no command
 * holds a node. Paths may be relative to the current directory.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/lib/memparse.h"
#include "kernel/base/platform.h"
#include "kernel/base/power.h"
#include "kernel/shell/shell.h"
#include "kernel/base/shell_command.h"
#include "kernel/shell/shell_line.h"
#include "kernel/time/time.h"

/* What cat and ls print, a piece at a time; static, as there is one
 * shell. */
static char shell_text[CTL_READ_MAX];

/*
 * print_pieces - cat and ls: print what read (ctl_read_at or
 * ctl_list_at) hands out, piece after piece from the start until an empty
 * one, so that a file or a directory of any length is printed whole
 * ("Long files" in kernel/fs/ctlfs.h). Text that does not end with a newline
 * gets one. Returns 0, or the error of the piece that failed - after what
 * was printed before it.
 */
static int print_pieces(const char *path,
			int (*read)(const char *path, size_t *pos, char *buf,
				    size_t size, char *why))
{
	char why[CTL_WHY_MAX];
	bool line_open = false;
	size_t pos = 0;
	int ret;

	while ((ret = read(path, &pos, shell_text, sizeof(shell_text),
			   why)) > 0) {
		printk("%s", shell_text);
		line_open = shell_text[ret - 1] != '\n';
	}
	if (line_open)
		printk("\n");
	if (ret < 0)
		return shell_error(ret, "%s", why);
	return 0;
}

/*
 * check_args - argc - 1 must be in [min, max]; otherwise shell_error(EINVAL)
 * with the usage of the command.
 */
static int check_args(int argc, char **argv, int min, int max)
{
	const char *usage = argv[0];

	section_table_for_each(const struct shell_command, shell_commands, cmd)
		if (strcmp(cmd->name, argv[0]) == 0)
			usage = cmd->usage;
	if (argc - 1 < min)
		return shell_error(EINVAL, "missing argument (usage: %s)",
				   usage);
	if (argc - 1 > max)
		return shell_error(EINVAL, "too many arguments (usage: %s)",
				   usage);
	return 0;
}

static void print_help(const struct shell_command *cmd)
{
	printk("%-28s %s\n", cmd->usage, cmd->help);
}

/* help lists the table in name order: each round prints the smallest name
 * greater than the one printed last. The table is small. */
static int cmd_help(int argc, char **argv)
{
	const struct shell_command *last = NULL, *next;
	int ret = check_args(argc, argv, 0, 1);

	if (ret < 0)
		return ret;
	if (argc == 2) {
		section_table_for_each(const struct shell_command,
				       shell_commands, cmd)
			if (strcmp(cmd->name, argv[1]) == 0) {
				print_help(cmd);
				return 0;
			}
		return shell_error(ENOENT, "unknown command '%s'", argv[1]);
	}
	do {
		next = NULL;
		section_table_for_each(const struct shell_command,
				       shell_commands, cmd) {
			if (last && strcmp(cmd->name, last->name) <= 0)
				continue;
			if (!next || strcmp(cmd->name, next->name) < 0)
				next = cmd;
		}
		if (next)
			print_help(next);
		last = next;
	} while (next);
	return 0;
}
SHELL_COMMAND(help, "help [COMMAND]", "list the commands, or explain one");

static int cmd_ls(int argc, char **argv)
{
	char path[SHELL_PATH_MAX];
	int ret = check_args(argc, argv, 0, 1);

	if (ret < 0)
		return ret;
	ret = shell_abspath(argc == 2 ? argv[1] : shell_cwd(), path,
			    sizeof(path));
	if (ret < 0)
		return ret;
	return print_pieces(path, ctl_list_at);
}
SHELL_COMMAND(ls, "ls [PATH]", "list a directory, one name per line");

static int cmd_cd(int argc, char **argv)
{
	int ret = check_args(argc, argv, 1, 1);

	if (ret < 0)
		return ret;
	return shell_chdir(argv[1]);
}
SHELL_COMMAND(cd, "cd PATH", "change the current directory");

static int cmd_pwd(int argc, char **argv)
{
	int ret = check_args(argc, argv, 0, 0);

	if (ret < 0)
		return ret;
	printk("%s\n", shell_cwd());
	return 0;
}
SHELL_COMMAND(pwd, "pwd", "print the current directory");

static int cmd_cat(int argc, char **argv)
{
	char path[SHELL_PATH_MAX];
	int ret = check_args(argc, argv, 1, 1);

	if (ret < 0)
		return ret;
	ret = shell_abspath(argv[1], path, sizeof(path));
	if (ret < 0)
		return ret;
	return print_pieces(path, ctl_read_at);
}
SHELL_COMMAND(cat, "cat FILE", "print a control file");

/* join - argv[0..n) separated by single spaces into buf. */
static int join(char **argv, int n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		size_t w = strlen(argv[i]);

		if (len + (i > 0) + w >= size)
			return shell_error(E2BIG, "value too long");
		if (i > 0)
			buf[len++] = ' ';
		memcpy(buf + len, argv[i], w + 1);
		len += w;
	}
	return 0;
}

/*
 * echo VALUE prints VALUE; echo VALUE > FILE hands VALUE (the words before
 * '>', joined by single spaces; may be empty) to FILE's write handler.
 */
static int cmd_echo(int argc, char **argv)
{
	char value[SHELL_LINE_MAX + 1], path[SHELL_PATH_MAX], why[CTL_WHY_MAX];
	int redirect = 0, ret;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], ">") != 0)
			continue;
		if (redirect)
			return shell_error(
				EINVAL,
				"more than one '>' (usage: echo VALUE > FILE)");
		redirect = i;
	}
	if (redirect && argc != redirect + 2)
		return shell_error(EINVAL, "%s (usage: echo VALUE > FILE)",
				   argc < redirect + 2 ? "no file after '>'" :
				   "more than one file after '>'");
	ret = join(argv + 1, (redirect ? redirect : argc) - 1, value,
		   sizeof(value));
	if (ret < 0)
		return ret;
	if (!redirect) {
		printk("%s\n", value);
		return 0;
	}
	ret = shell_abspath(argv[redirect + 1], path, sizeof(path));
	if (ret < 0)
		return ret;
	ret = ctl_write(path, value, why);
	if (ret < 0)
		return shell_error(ret, "%s", why);
	return 0;
}
SHELL_COMMAND(echo, "echo [VALUE] [> FILE]",
	      "print VALUE, or write it to a control file");

/* dir_command - mkdir or rmdir: one PATH, handed to ctl_mkdir/ctl_rmdir. */
static int dir_command(int argc, char **argv,
		       int (*op)(const char *path, char *why))
{
	char path[SHELL_PATH_MAX], why[CTL_WHY_MAX];
	int ret = check_args(argc, argv, 1, 1);

	if (ret < 0)
		return ret;
	ret = shell_abspath(argv[1], path, sizeof(path));
	if (ret < 0)
		return ret;
	ret = op(path, why);
	if (ret < 0)
		return shell_error(ret, "%s", why);
	return 0;
}

static int cmd_mkdir(int argc, char **argv)
{
	return dir_command(argc, argv, ctl_mkdir);
}
SHELL_COMMAND(mkdir, "mkdir PATH", "make a directory (a domain, in /cgroup)");

static int cmd_rmdir(int argc, char **argv)
{
	return dir_command(argc, argv, ctl_rmdir);
}
SHELL_COMMAND(rmdir, "rmdir PATH", "remove a directory (a domain, in /cgroup)");

static int cmd_sleep(int argc, char **argv)
{
	long ms;
	int ret = check_args(argc, argv, 1, 1);

	if (ret < 0)
		return ret;
	if (parse_int(argv[1], &ms) < 0 || ms < 0 || ms > UINT_MAX)
		return shell_error(EINVAL,
				   "'%s' is not a number of milliseconds",
				   argv[1]);
	msleep((unsigned int)ms);
	return 0;
}
SHELL_COMMAND(sleep, "sleep MS", "wait MS milliseconds");

static int cmd_poweroff(int argc, char **argv)
{
	int ret = check_args(argc, argv, 0, 0);

	if (ret < 0)
		return ret;
	machine_poweroff();
}
SHELL_COMMAND(poweroff, "poweroff", "turn the machine off");

static int cmd_reboot(int argc, char **argv)
{
	if (argc != 1)
		return shell_error(EINVAL, "reboot takes no argument");
	machine_reboot();
}
SHELL_COMMAND(reboot, "reboot", "restart the machine");
