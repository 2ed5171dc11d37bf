// SPDX-License-Identifier: MIT
/*
 * kernel/fs/ctlfs_seq.c - pieces of long control files: struct ctl_seq (see
 * "Long files" in kernel/fs/ctlfs.h; Linux: fs/seq_file.c).
 *
 * A show handler prints every record of its file; each ctl_seq_printf()
 * decides what happens to one record:
 *
 *   index < start              before the piece: skipped, not formatted
 *   fits in what is left       kept, whole
 *   does not fit               the piece is full: dropped, and so is
 *                              every record after it
 *
 * index counts the records printed so far, so once the handler returns,
 * index is where the next piece starts. A record that does not fit even
 * in an empty buffer is cut to fit, and counts as read: every piece that
 * is not empty moves on by at least one record, so a reader that goes on
 * until an empty piece always ends.
 */
#include <stdarg.h>
#include <stdio.h>

#include "kernel/fs/ctlfs.h"

void ctl_seq_init(struct ctl_seq *seq, char *buf, size_t size, size_t start)
{
	seq->buf = buf;
	seq->size = size;
	seq->len = 0;
	seq->start = start;
	seq->index = 0;
	seq->full = size == 0;
	if (size > 0)
		buf[0] = '\0';
}

bool ctl_seq_vprintf(struct ctl_seq *seq, const char *fmt, va_list ap)
{
	size_t room = seq->size - seq->len;
	int n;

	if (seq->full)
		return false;
	if (seq->index < seq->start) {
		seq->index++;
		return true;
	}
	n = vsnprintf(seq->buf + seq->len, room, fmt, ap);
	if (n >= 0 && (size_t)n < room) {
		seq->len += n;
		seq->index++;
		return true;
	}
	if (seq->len == 0 && n > 0) {
		/* Longer than the whole buffer: keep what fits, go past it. */
		seq->len = seq->size - 1;
		seq->index++;
	}
	seq->buf[seq->len] = '\0';  /* only whole records before it */
	seq->full = true;
	return false;
}

bool ctl_seq_printf(struct ctl_seq *seq, const char *fmt, ...)
{
	va_list ap;
	bool kept;

	va_start(ap, fmt);
	kept = ctl_seq_vprintf(seq, fmt, ap);
	va_end(ap);
	return kept;
}

static bool seq_vemit(void *ctx, const char *fmt, va_list ap)
{
	return ctl_seq_vprintf(ctx, fmt, ap);
}

struct emitter ctl_seq_emitter(struct ctl_seq *seq)
{
	return (struct emitter){.vemit = seq_vemit, .ctx = seq};
}
