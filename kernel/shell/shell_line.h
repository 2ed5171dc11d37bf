/* SPDX-License-Identifier: MIT */
/*
 * kernel/shell/shell_line.h - the shell's line discipline: turning the bytes
 * that arrive from the console into lines, with echo and backspace.
 */
#ifndef KERNEL_SHELL_LINE_H
#define KERNEL_SHELL_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* The longest line the shell accepts; longer lines are E2BIG. */
#define SHELL_LINE_MAX 255

struct shell_line {
	char buf[SHELL_LINE_MAX + 1];  /* the first SHELL_LINE_MAX bytes */
	size_t len;     /* bytes on the line now; may pass SHELL_LINE_MAX */
	bool after_cr;  /* the last line ended with CR: one LF is ignored */
};

/* shell_line_feed returns one of these, or -E2BIG. */
#define SHELL_LINE_MORE 0  /* the line goes on */
#define SHELL_LINE_DONE 1  /* line->buf holds a whole line (maybe empty) */

/* shell_line_reset - start with an empty line. */
void shell_line_reset(struct shell_line *line);

/*
 * shell_line_feed - take one input byte, and echo it on the console's edit
 * line (console_edit_echo; the ending newline with console_edit_end).
 *
 *  - printable bytes (' ' to '~') are added to the line and echoed;
 *  - backspace (0x08) and delete (0x7f) erase the last byte, echoing
 *    "\b \b", if the line is not empty;
 *  - CR or LF ends the line, echoing "\n"; an LF right after the CR that
 *    ended a line is ignored (CR LF counts once);
 *  - every other byte is ignored (not echoed, not added).
 *
 * Returns SHELL_LINE_MORE; SHELL_LINE_DONE when a line ended (line->buf is
 * it, NUL-terminated, until the next call); or -E2BIG when a line longer
 * than SHELL_LINE_MAX bytes ended. A long line is read to its end, so the
 * caller reports it once.
 */
int shell_line_feed(struct shell_line *line, int c);

#endif
