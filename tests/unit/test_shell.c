// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_shell.c - the shell as a user sees it: whole input byte
 * streams go through the line discipline (from the host console stub) and
 * the exact output transcript is checked: prompt, echo, CR LF, backspace,
 * ignored bytes, E2BIG, the error lines, and every built-in command over
 * the test tree of tests/unit/host_ctltree.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/shell/jobs.h"
#include "kernel/shell/shell.h"
#include "kernel/shell/shell_line.h"
#include "mm/slab.h"
#include "tests/unit/host_console.h"
#include "tests/unit/host_ctltree.h"
#include "tests/unit/host_mem.h"

static int setup(void **state)
{
	slab_debug = true;
	host_mem_init(8u << 20);
	assert_non_null(host_ctltree_create());
	assert_int_equal(shell_chdir("/"), 0);
	return 0;
}

static int teardown(void **state)
{
	host_console_capture(false);
	host_console_input_clear();
	host_ctltree_remove();
	return 0;
}

/* run - type input into the shell; what it printed until input ran out. */
static const char *run(const char *input, size_t len)
{
	host_console_input_clear();
	host_console_input(input, len);
	host_console_capture(true);
	shell_run();
	return host_console_output();
}

#define RUN(input) run((input), sizeof(input) - 1)

#define P "tally:/# "
#define PT "tally:/test# "

static void test_prompt(void **state)
{
	assert_string_equal(RUN(""), P);
	assert_string_equal(RUN("pwd\n"), P "pwd\n/\n" P);
	assert_string_equal(RUN("cd /test\npwd\n"),
			    P "cd /test\n" PT "pwd\n/test\n" PT);
}

static void test_line_endings(void **state)
{
	/* CR, LF and CR LF each end one line */
	assert_string_equal(RUN("cd /test\r\npwd\r\n"),
			    P "cd /test\n" PT "pwd\n/test\n" PT);
	assert_string_equal(RUN("cd /\rpwd\r"), PT "cd /\n" P "pwd\n/\n" P);
	assert_string_equal(RUN("pwd\npwd\n"), P "pwd\n/\n" P "pwd\n/\n" P);
	/* empty lines: a new prompt each */
	assert_string_equal(RUN("\n\n"), P "\n" P "\n" P);
	assert_string_equal(RUN("\r\r"), P "\n" P "\n" P);
	assert_string_equal(RUN("\r\n\r\n"), P "\n" P "\n" P);
	/* LF CR is two line ends; CR LF LF is two */
	assert_string_equal(RUN("\n\r"), P "\n" P "\n" P);
	assert_string_equal(RUN("\r\n\n"), P "\n" P "\n" P);
	/* spaces only: an empty command */
	assert_string_equal(RUN("   \n"), P "   \n" P);
	/* a line still being typed when input ends is not run */
	assert_string_equal(RUN("pwd"), P "pwd");
}

static void test_backspace(void **state)
{
	assert_string_equal(RUN("pwx\bd\n"), P "pwx\b \bd\n/\n" P);
	assert_string_equal(RUN("pwx\x7f" "d\n"), P "pwx\b \bd\n/\n" P);
	/* nothing to erase: nothing echoed */
	assert_string_equal(RUN("\b\x7fpwd\n"), P "pwd\n/\n" P);
	assert_string_equal(RUN("ab\b\b\bpwd\n"),
			    P "ab\b \b\b \bpwd\n/\n" P);
}

static void test_ignored_bytes(void **state)
{
	static const char input[] = "p\x01w\x1b\td\x80\xff\x00\n";

	assert_string_equal(run(input, sizeof(input) - 1), P "pwd\n/\n" P);
	/* an ignored byte between CR and LF: still one line end */
	assert_string_equal(RUN("pwd\r\x01\n"), P "pwd\n/\n" P);
}

static void test_line_too_long(void **state)
{
	char input[600], expect[800];

	/* 255 bytes is a line; 256 is E2BIG, reported once at its end */
	memset(input, 'a', 255);
	strcpy(input + 255, "\n");
	snprintf(expect, sizeof(expect),
		 P "%.255s\nerror: ENOENT: unknown command 'aaaa", input);
	const char *out = run(input, 256);
	assert_memory_equal(out, expect, strlen(expect));
	assert_string_equal(out + strlen(out) - strlen("a\n" P), "a\n" P);

	memset(input, 'a', 256);
	strcpy(input + 256, "\npwd\n");
	snprintf(expect, sizeof(expect),
		 P "%.256s\nerror: E2BIG: line longer than 255 bytes\n" P "pwd\n/\n" P,
		 input);
	assert_string_equal(run(input, strlen(input)), expect);

	/* 300 bytes typed, 296 erased: "pwd " is left, a valid line */
	strcpy(input, "pwd ");
	memset(input + 4, 'x', 296);
	memset(input + 300, '\b', 296);
	strcpy(input + 596, "\n");
	out = run(input, 597);
	size_t n = strlen(out);
	assert_true(n > 6);
	assert_string_equal(out + n - strlen("\n/\n" P), "\n/\n" P);
}

static void test_unknown_command(void **state)
{
	assert_string_equal(RUN("frobnicate 1 2\n"),
			    P "frobnicate 1 2\n"
			    "error: ENOENT: unknown command 'frobnicate' (try help)\n" P);
}

static void test_cd_pwd(void **state)
{
	assert_string_equal(RUN("cd test/cg\npwd\ncd ..\npwd\ncd ../..\npwd\n"),
			    P "cd test/cg\n"
			    "tally:/test/cg# pwd\n/test/cg\n"
			    "tally:/test/cg# cd ..\n"
			    PT "pwd\n/test\n"
			    PT "cd ../..\n"
			    P "pwd\n/\n" P);
	assert_string_equal(RUN("cd //test//./\n"), P "cd //test//./\n" PT);
	assert_string_equal(RUN("cd /test/ro\n"),
			    PT "cd /test/ro\n"
			    "error: ENOTDIR: /test/ro is not a directory\n" PT);
	assert_string_equal(RUN("cd nothing\n"),
			    PT "cd nothing\n"
			    "error: ENOENT: /test/nothing does not exist\n" PT);
	assert_string_equal(RUN("cd\n"),
			    PT "cd\n"
			    "error: EINVAL: missing argument (usage: cd PATH)\n" PT);
	assert_string_equal(RUN("cd a b\n"),
			    PT "cd a b\n"
			    "error: EINVAL: too many arguments (usage: cd PATH)\n" PT);
	assert_string_equal(RUN("pwd x\n"),
			    PT "pwd x\n"
			    "error: EINVAL: too many arguments (usage: pwd)\n" PT);
}

static void test_ls(void **state)
{
	assert_string_equal(RUN("ls\n"), P "ls\ntest\n" P);
	assert_string_equal(RUN("ls /test\n"),
			    P "ls /test\nvalue\nsize\nro\nwo\nempty\nnoline\nfail\ncg\nlong\n" P);
	assert_string_equal(RUN("cd test\nls cg\nls ro\nls ../test/ro\n"),
			    P "cd test\n" PT "ls cg\n" PT "ls ro\nro\n"
			    PT "ls ../test/ro\nro\n" PT);
	assert_string_equal(RUN("ls none\n"),
			    PT "ls none\nerror: ENOENT: /test/none does not exist\n" PT);
	assert_string_equal(RUN("ls ro/x\n"),
			    PT "ls ro/x\nerror: ENOTDIR: /test/ro is not a directory\n" PT);
	assert_string_equal(RUN("ls a b\n"),
			    PT "ls a b\nerror: EINVAL: too many arguments (usage: ls [PATH])\n" PT);
}

static void test_cat(void **state)
{
	assert_string_equal(RUN("cat /test/value\n"),
			    P "cat /test/value\ninitial\n" P);
	/* a newline is added when the text has none; empty text prints nothing */
	assert_string_equal(RUN("cat /test/noline\ncat /test/empty\n"),
			    P "cat /test/noline\nno newline\n"
			    P "cat /test/empty\n" P);
	assert_string_equal(RUN("cat /test\n"),
			    P "cat /test\nerror: EISDIR: /test is a directory\n" P);
	assert_string_equal(RUN("cat /test/wo\n"),
			    P "cat /test/wo\nerror: EINVAL: /test/wo cannot be read\n" P);
	assert_string_equal(RUN("cat /test/fail\n"),
			    P "cat /test/fail\nerror: EBUSY: test file is busy\n" P);
	assert_string_equal(RUN("cat\n"),
			    P "cat\nerror: EINVAL: missing argument (usage: cat FILE)\n" P);
}

/* cat and ls print a file or a directory of any length whole: piece
 * after piece, each of whole lines ("Long files" in kernel/fs/ctlfs.h). */
static void test_cat_ls_long(void **state)
{
	static char want[HOST_LONG_LINES * 24 + 64];
	char path[64], why[CTL_WHY_MAX];
	size_t len;

	len = snprintf(want, sizeof(want), P "cat /test/long\n");
	for (int i = 1; i <= HOST_LONG_LINES; i++)
		len += snprintf(want + len, sizeof(want) - len,
				"line %d of %d\n", i, HOST_LONG_LINES);
	snprintf(want + len, sizeof(want) - len, P);
	assert_true(len > CTL_READ_MAX);
	assert_string_equal(RUN("cat /test/long\n"), want);

	len = snprintf(want, sizeof(want), P "ls /test/cg\n");
	for (int i = 0; i < 800; i++) {
		snprintf(path, sizeof(path), "/test/cg/a_long_domain_name_%03d", i);
		assert_int_equal(ctl_mkdir(path, why), 0);
		len += snprintf(want + len, sizeof(want) - len,
				"a_long_domain_name_%03d\n", i);
	}
	snprintf(want + len, sizeof(want) - len, P);
	assert_true(len > 2 * CTL_READ_MAX);
	assert_string_equal(RUN("ls /test/cg\n"), want);
	for (int i = 0; i < 800; i++) {
		snprintf(path, sizeof(path), "/test/cg/a_long_domain_name_%03d", i);
		assert_int_equal(ctl_rmdir(path, why), 0);
	}
}

static void test_echo(void **state)
{
	assert_string_equal(RUN("echo\n"), P "echo\n\n" P);
	assert_string_equal(RUN("echo hello   world\n"),
			    P "echo hello   world\nhello world\n" P);
	/* the three forms of redirection */
	assert_string_equal(RUN("cd test\necho 8M > size\ncat size\n"),
			    P "cd test\n" PT "echo 8M > size\n"
			    PT "cat size\n8388608\n" PT);
	assert_string_equal(RUN("echo 1k >size\ncat size\n"),
			    PT "echo 1k >size\n" PT "cat size\n4096\n" PT);
	assert_string_equal(RUN("echo -1>size\ncat size\n"),
			    PT "echo -1>size\n" PT "cat size\n9223372036854775807\n" PT);
	assert_string_equal(RUN("echo 9223372036854775807 > size\ncat size\n"),
			    PT "echo 9223372036854775807 > size\n"
			    PT "cat size\n9223372036854775807\n" PT);
	/* an empty value, and several words joined by one space */
	assert_string_equal(RUN("echo > wo\n"), PT "echo > wo\n" PT);
	assert_string_equal(RUN("echo > value\n"),
			    PT "echo > value\n"
			    "error: EINVAL: value must be 1 to 63 bytes\n" PT);
	assert_string_equal(RUN("echo a  b > value\ncat value\n"),
			    PT "echo a  b > value\n" PT "cat value\na b\n" PT);
	/* a failed write changes nothing */
	assert_string_equal(RUN("echo 1.0 > size\ncat size\n"),
			    PT "echo 1.0 > size\n"
			    "error: EINVAL: '1.0' is not a size\n"
			    PT "cat size\n9223372036854775807\n" PT);
	assert_string_equal(RUN("echo 1 > fail\n"),
			    PT "echo 1 > fail\n"
			    "error: ENOSPC: cannot write to /test/fail\n" PT);
	assert_string_equal(RUN("echo 1 > ro\n"),
			    PT "echo 1 > ro\n"
			    "error: EINVAL: /test/ro cannot be written\n" PT);
	assert_string_equal(RUN("echo 1 > cg\n"),
			    PT "echo 1 > cg\n"
			    "error: EISDIR: /test/cg is a directory\n" PT);
	assert_string_equal(RUN("echo 1 > none\n"),
			    PT "echo 1 > none\n"
			    "error: ENOENT: /test/none does not exist\n" PT);
	/* malformed redirections */
	assert_string_equal(RUN("echo 1 >\n"),
			    PT "echo 1 >\n"
			    "error: EINVAL: no file after '>' (usage: echo VALUE > FILE)\n" PT);
	assert_string_equal(RUN("echo 1 > a b\n"),
			    PT "echo 1 > a b\n"
			    "error: EINVAL: more than one file after '>' (usage: echo VALUE > FILE)\n" PT);
	assert_string_equal(RUN("echo 1 >> size\n"),
			    PT "echo 1 >> size\n"
			    "error: EINVAL: more than one '>' (usage: echo VALUE > FILE)\n" PT);
	assert_string_equal(RUN("cat ro > value\n"),
			    PT "cat ro > value\n"
			    "error: EINVAL: only echo writes to a file: echo VALUE > FILE\n" PT);
}

static void test_mkdir_rmdir(void **state)
{
	assert_string_equal(RUN("cd /test/cg\nmkdir A\nmkdir A/B\nls\nls A\n"),
			    P "cd /test/cg\n"
			    "tally:/test/cg# mkdir A\n"
			    "tally:/test/cg# mkdir A/B\n"
			    "tally:/test/cg# ls\nA\n"
			    "tally:/test/cg# ls A\nlimit\nB\n"
			    "tally:/test/cg# ");
	assert_string_equal(RUN("mkdir A\n"),
			    "tally:/test/cg# mkdir A\n"
			    "error: EEXIST: /test/cg/A exists\n"
			    "tally:/test/cg# ");
	assert_string_equal(RUN("rmdir A\n"),
			    "tally:/test/cg# rmdir A\n"
			    "error: EBUSY: domain A has domains in it\n"
			    "tally:/test/cg# ");
	assert_string_equal(RUN("mkdir /test/x\n"),
			    "tally:/test/cg# mkdir /test/x\n"
			    "error: EPERM: cannot make directories in /test\n"
			    "tally:/test/cg# ");
	assert_string_equal(RUN("rmdir /test/cg\n"),
			    "tally:/test/cg# rmdir /test/cg\n"
			    "error: EPERM: /test/cg cannot be removed\n"
			    "tally:/test/cg# ");
	assert_string_equal(RUN("rmdir A/limit\n"),
			    "tally:/test/cg# rmdir A/limit\n"
			    "error: ENOTDIR: /test/cg/A/limit is not a directory\n"
			    "tally:/test/cg# ");
	assert_string_equal(RUN("mkdir\n"),
			    "tally:/test/cg# mkdir\n"
			    "error: EINVAL: missing argument (usage: mkdir PATH)\n"
			    "tally:/test/cg# ");
	assert_string_equal(RUN("rmdir A B\n"),
			    "tally:/test/cg# rmdir A B\n"
			    "error: EINVAL: too many arguments (usage: rmdir PATH)\n"
			    "tally:/test/cg# ");
	assert_string_equal(RUN("rmdir A/B\nrmdir A\nls\n"),
			    "tally:/test/cg# rmdir A/B\n"
			    "tally:/test/cg# rmdir A\n"
			    "tally:/test/cg# ls\n"
			    "tally:/test/cg# ");
}

/* The current directory removed under the shell: nothing breaks. */
static void test_cwd_removed(void **state)
{
	assert_string_equal(RUN("mkdir /test/cg/A\ncd /test/cg/A\nrmdir /test/cg/A\npwd\nls\ncd /\n"),
			    P "mkdir /test/cg/A\n"
			    P "cd /test/cg/A\n"
			    "tally:/test/cg/A# rmdir /test/cg/A\n"
			    "tally:/test/cg/A# pwd\n/test/cg/A\n"
			    "tally:/test/cg/A# ls\n"
			    "error: ENOENT: /test/cg/A does not exist\n"
			    "tally:/test/cg/A# cd /\n" P);
}

static void test_sleep(void **state)
{
	uint64_t before = host_msleep_total_ms;

	assert_string_equal(RUN("sleep 50\nsleep 0\n"),
			    P "sleep 50\n" P "sleep 0\n" P);
	assert_int_equal(host_msleep_total_ms, before + 50);
	assert_string_equal(RUN("sleep -1\n"),
			    P "sleep -1\n"
			    "error: EINVAL: '-1' is not a number of milliseconds\n" P);
	assert_string_equal(RUN("sleep 1s\n"),
			    P "sleep 1s\n"
			    "error: EINVAL: '1s' is not a number of milliseconds\n" P);
	assert_string_equal(RUN("sleep 99999999999\n"),
			    P "sleep 99999999999\n"
			    "error: EINVAL: '99999999999' is not a number of milliseconds\n" P);
	assert_string_equal(RUN("sleep\n"),
			    P "sleep\n"
			    "error: EINVAL: missing argument (usage: sleep MS)\n" P);
	assert_int_equal(host_msleep_total_ms, before + 50);
}

static jmp_buf poweroff_jmp;
static int poweroff_value = -1;

static void poweroff_hook(int value)
{
	poweroff_value = value;
	longjmp(poweroff_jmp, 1);
}

static void test_poweroff(void **state)
{
	assert_string_equal(RUN("poweroff now\n"),
			    P "poweroff now\n"
			    "error: EINVAL: too many arguments (usage: poweroff)\n" P);
	host_poweroff_hook = poweroff_hook;
	if (setjmp(poweroff_jmp) == 0) {
		RUN("poweroff\n");
		fail_msg("poweroff returned");
	}
	host_poweroff_hook = NULL;
	assert_int_equal(poweroff_value, 0);
	assert_string_equal(host_console_output(), P "poweroff\n");
}

static void test_help(void **state)
{
	const char *out = RUN("help\n");
	const char *names[] = {"cat FILE", "cd PATH", "echo [VALUE] [> FILE]",
			       "help [COMMAND]", "ls [PATH]", "mkdir PATH",
			       "poweroff", "pwd", "rmdir PATH", "sleep MS"};
	const char *prev = out;

	/* every built-in, in name order, each at the start of a line */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char line[64];
		const char *at;

		snprintf(line, sizeof(line), "\n%s ", names[i]);
		at = strstr(out, line);
		if (!at)
			fail_msg("help does not list '%s':\n%s", names[i], out);
		assert_true(at >= prev);
		prev = at;
	}
	assert_string_equal(RUN("help cd\n"),
			    P "help cd\n"
			    "cd PATH                      change the current directory\n" P);
	assert_string_equal(RUN("help nothing\n"),
			    P "help nothing\n"
			    "error: ENOENT: unknown command 'nothing'\n" P);
}

static void test_script(void **state)
{
	static const char *const lines[] = {"cd /test", "cat ro",
					    "echo 8k > size", "cat size",
					    "nothing", NULL};

	host_console_capture(true);
	shell_run_script(lines);
	assert_string_equal(host_console_output(),
			    P "cd /test\n"
			    PT "cat ro\nread only\n"
			    PT "echo 8k > size\n"
			    PT "cat size\n8192\n"
			    PT "nothing\n"
			    "error: ENOENT: unknown command 'nothing' (try help)\n");
	/* then the interactive shell starts with its prompt */
	assert_string_equal(RUN("pwd\n"), PT "pwd\n/test\n" PT);
}

static void test_execute(void **state)
{
	char line[400];

	host_console_capture(true);
	strcpy(line, "");
	assert_int_equal(shell_execute(line), 0);
	strcpy(line, " \t ");
	assert_int_equal(shell_execute(line), 0);
	strcpy(line, "\tpwd\t");
	assert_int_equal(shell_execute(line), 0);
	strcpy(line, "nothing");
	assert_int_equal(shell_execute(line), -ENOENT);
	strcpy(line, "cd /test/ro");
	assert_int_equal(shell_execute(line), -ENOTDIR);
	memset(line, 'a', 256);
	line[256] = '\0';
	assert_int_equal(shell_execute(line), -E2BIG);
	/* 255 '>' are 255 words: within the limit */
	memset(line, '>', 255);
	line[255] = '\0';
	assert_int_equal(shell_execute(line), -ENOENT);
	assert_string_equal(host_console_output(),
			    "/\n"
			    "error: ENOENT: unknown command 'nothing' (try help)\n"
			    "error: ENOTDIR: /test/ro is not a directory\n"
			    "error: E2BIG: line longer than 255 bytes\n"
			    "error: ENOENT: unknown command '>' (try help)\n");
}

/*
 * A job that ends while the shell waits for input: its notice
 * goes on a line of its own, then the prompt and the half-typed line are
 * written again; one that ended while a command ran is reported before
 * that command's prompt; a second report has nothing to say.
 */
static void test_job_notice(void **state)
{
	struct job *a = job_new(), *b = job_new();

	assert_non_null(a);
	assert_non_null(b);
	job_started(a, 7);
	job_reaped(a, 7, true);   /* kicks the console */
	assert_int_equal(job_state(7), JOB_ENDED);
	/* (shell_run starts by reporting what ended before it.) */
	assert_string_equal(RUN("pw"), "[pid 7 killed]\n" P "pw");

	/* The reaper may report a job before run has its PID. */
	job_reaped(b, 8, false);
	job_started(b, 8);
	assert_string_equal(RUN("pwd\n"), "[pid 8 exited]\n" P "pwd\n/\n" P);
	assert_string_equal(RUN("pwd\n"), P "pwd\n/\n" P);

	/* A job wait saw end is not reported. */
	struct job *c = job_new();

	job_started(c, 9);
	assert_int_equal(job_state(9), JOB_RUNNING);
	job_reaped(c, 9, false);
	job_waited(9);
	assert_string_equal(RUN("\n"), P "\n" P);
	assert_int_equal(job_state(9), JOB_ENDED);
	assert_int_equal(job_state(10), JOB_NONE);

	/* A failed start leaves no record. */
	struct job *d = job_new();

	job_started(d, -ENOMEM);
	assert_int_equal(jobs_report(), 0);
}

/* A message from elsewhere while a line is half typed: on a line of its
 * own, then the prompt and the line again; the line still runs whole. */
static void test_message_redraw(void **state)
{
	host_console_input_clear();
	host_console_input_str("cd /te");
	host_console_capture(true);
	shell_run();
	printk("memcg: /cgroup/R: out of memory: killed task 3\n");
	printk("a message without its newline");
	assert_string_equal(host_console_output(),
			    P "cd /te\n"
			    "memcg: /cgroup/R: out of memory: killed task 3\n"
			    P "cd /te\n"
			    "a message without its newline\n"
			    P "cd /te");
}

/* shell_abspath and paths near the limits */
static void test_abspath(void **state)
{
	char buf[SHELL_PATH_MAX];

	assert_int_equal(shell_abspath("x", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x");
	assert_int_equal(shell_abspath("/a/b", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/a/b");
	assert_int_equal(shell_chdir("/test"), 0);
	assert_int_equal(shell_abspath("x/y", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/test/x/y");
	assert_int_equal(shell_abspath("x/y", buf, 5), -E2BIG);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

	const struct CMUnitTest tests[] = {
		T(test_prompt),
		T(test_line_endings),
		T(test_backspace),
		T(test_ignored_bytes),
		T(test_line_too_long),
		T(test_unknown_command),
		T(test_cd_pwd),
		T(test_ls),
		T(test_cat),
		T(test_cat_ls_long),
		T(test_echo),
		T(test_mkdir_rmdir),
		T(test_cwd_removed),
		T(test_sleep),
		T(test_poweroff),
		T(test_help),
		T(test_script),
		T(test_execute),
		T(test_abspath),
		T(test_job_notice),
		T(test_message_redraw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
