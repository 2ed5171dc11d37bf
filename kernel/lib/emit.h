/* SPDX-License-Identifier: MIT */
/*
 * kernel/lib/emit.h - somewhere to print records to, without knowing where.
 *
 * A file of /proc whose length has no bound (a line per slab cache, a line
 * per CPU) is printed by a function of the subsystem that owns the numbers
 * (mm/, the scheduler) one record at a time. That function takes a struct
 * emitter and calls emitf() once per record; the emitter decides what
 * becomes of the text: kernel/fs/ctlfs_seq.c keeps the records of one
 * piece of a long control file, struct emit_buf below keeps as many whole
 * records as fit in a buffer. So mm/ prints its /proc files without
 * including anything from kernel/fs/, which itself allocates from mm/.
 */
#ifndef KERNEL_LIB_EMIT_H
#define KERNEL_LIB_EMIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct emitter {
	/* Take one record, formatted as vprintf; false: the reader wants
	 * no more records (its buffer is full), so the printer stops. */
	bool (*vemit)(void *ctx, const char *fmt, va_list ap);
	void *ctx;
};

/* emitf - hand one record (printf-style) to out; returns what vemit said. */
bool emitf(const struct emitter *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* struct emit_buf - an emitter into buf[0..size): whole records only,
 * NUL-terminated; the first record that does not fit ends the text. */
struct emit_buf {
	char *buf;
	size_t size;
	size_t len;
	bool full;
};

/* emit_buf_init - an empty buffer (size >= 1), and the emitter that fills
 * it. */
struct emitter emit_buf_init(struct emit_buf *eb, char *buf, size_t size);

#endif
