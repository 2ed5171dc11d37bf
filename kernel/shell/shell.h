/* SPDX-License-Identifier: MIT */
/*
 * kernel/shell/shell.h - the shell on the console (docs/interface.md).
 *
 * The shell prints the prompt "tally:CWD# ", reads a line (with echo, see
 * kernel/shell/shell_line.h), splits it into words and runs the command named
 * by the first word from the shell_commands table
 * (kernel/base/shell_command.h). A failed command prints one line "error:
 * ENAME: explanation".
 *
 * Syntax of a line: words separated by spaces (or tabs); no quoting. A '>'
 * is a word of its own wherever it stands ("echo 8M>f" is "echo 8M > f"),
 * and only echo accepts it: "echo VALUE > FILE" writes VALUE to FILE.
 *
 * There is one shell; its functions are called from one task at a time.
 */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include <stddef.h>

/* The most words on a line (a 255-byte line of ">" has 255). */
#define SHELL_ARGS_MAX 256
/* Room for a path typed on a line joined to the current directory. */
#define SHELL_PATH_MAX 512

/*
 * shell_run - the interactive shell: print the prompt, read lines with
 * console_getc() and run them, forever. Returns only if console_getc()
 * returns a negative value (the end of input: host tests do this).
 */
void shell_run(void);

/*
 * shell_run_script - run lines as if typed: for each line, print the
 * prompt, then feed the line and a newline through the line discipline
 * (so it is echoed and run as typed). lines ends with NULL.
 */
void shell_run_script(const char *const *lines);

/*
 * shell_execute - split one line (modified in place) into words and run
 * it; print "error: ENAME: explanation" if it fails. An empty line does
 * nothing. Returns 0 or the command's negative errno: -ENOENT for an
 * unknown command, -E2BIG for a line over SHELL_LINE_MAX bytes.
 */
int shell_execute(char *line);

/* shell_cwd - the current directory, an absolute path. */
const char *shell_cwd(void);

/*
 * shell_abspath - path made absolute against the current directory, into
 * buf (SHELL_PATH_MAX bytes are always enough for a typed path). "." and
 * ".." are left for ctl_lookup to resolve. Returns 0 or shell_error(E2BIG).
 */
int shell_abspath(const char *path, char *buf, size_t size);

/*
 * shell_chdir - make path (absolute or relative) the current directory.
 * Returns 0, or a negative errno with the explanation set: -ENOENT,
 * -ENOTDIR, -E2BIG.
 */
int shell_chdir(const char *path);

#endif
