// SPDX-License-Identifier: MIT
/*
 * kernel/lib/emit.c - emitf(), and the emitter that fills a plain buffer
 * (see emit.h).
 */
#include "kernel/lib/emit.h"

#include <stdio.h>

bool emitf(const struct emitter *out, const char *fmt, ...)
{
	va_list ap;
	bool more;

	va_start(ap, fmt);
	more = out->vemit(out->ctx, fmt, ap);
	va_end(ap);
	return more;
}

static bool emit_buf_vemit(void *ctx, const char *fmt, va_list ap)
{
	struct emit_buf *eb = ctx;
	size_t room = eb->size - eb->len;
	int n;

	if (eb->full)
		return false;
	n = vsnprintf(eb->buf + eb->len, room, fmt, ap);
	if (n >= 0 && (size_t)n < room) {
		eb->len += (size_t)n;
		return true;
	}
	eb->buf[eb->len] = '\0';  /* drop the part of the record that fitted */
	eb->full = true;
	return false;
}

struct emitter emit_buf_init(struct emit_buf *eb, char *buf, size_t size)
{
	eb->buf = buf;
	eb->size = size;
	eb->len = 0;
	eb->full = size == 0;
	if (size > 0)
		buf[0] = '\0';
	return (struct emitter){.vemit = emit_buf_vemit, .ctx = eb};
}
