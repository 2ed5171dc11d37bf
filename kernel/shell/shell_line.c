// SPDX-License-Identifier: MIT
/*
 * kernel/shell/shell_line.c - the shell's line discipline (what a Unix tty does
 * in "cooked" mode, in a few lines): echo, erase, end of line.
 *
 * The line is counted past its buffer: a user who types 300 bytes and then
 * erases 50 has a valid 250-byte line, because the first 255 bytes were
 * kept and erasing only moves the count back.
 *
 * The echo goes through the console's edit line (kernel/printk/console.h),
 * which keeps a copy of it: a message printed meanwhile by someone else
 * is then followed by the prompt and the line as typed so far.
 */
#include <errno.h>

#include "kernel/base/platform.h"
#include "kernel/printk/console.h"
#include "kernel/shell/shell_line.h"

void shell_line_reset(struct shell_line *line)
{
	line->len = 0;
	line->after_cr = false;
	line->buf[0] = '\0';
}

/* end_line - the line is complete: terminate it and start the next one. */
static int end_line(struct shell_line *line)
{
	size_t len = line->len;

	console_edit_end();  /* the newline */
	line->len = 0;
	if (len > SHELL_LINE_MAX) {
		line->buf[0] = '\0';
		return -E2BIG;
	}
	line->buf[len] = '\0';
	return SHELL_LINE_DONE;
}

int shell_line_feed(struct shell_line *line, int c)
{
	if (c == '\n' && line->after_cr) {
		line->after_cr = false;
		return SHELL_LINE_MORE;
	}
	if (c == '\r' || c == '\n') {
		line->after_cr = c == '\r';
		return end_line(line);
	}
	if (c == '\b' || c == 0x7f) {
		line->after_cr = false;
		if (line->len > 0) {
			line->len--;
			console_edit_echo("\b \b", 3);
		}
		return SHELL_LINE_MORE;
	}
	if (c >= ' ' && c <= '~') {
		line->after_cr = false;
		if (line->len < SHELL_LINE_MAX)
			line->buf[line->len] = (char)c;
		/* Never wraps: a line that long needs 2^64 bytes of input. */
		line->len++;
		char echo = (char)c;

		console_edit_echo(&echo, 1);
	}
	/* Any other byte is ignored, and does not end a CR LF pair. */
	return SHELL_LINE_MORE;
}
