// SPDX-License-Identifier: MIT
/*
 * kernel/printk/printk.c - formatted console output, with newlib's vsnprintf.
 *
 * A message is formatted into a buffer on the stack and written in one
 * piece, so concurrent messages from several CPUs do not interleave. Long
 * messages (a control file's contents) are formatted into a larger static
 * buffer under its own lock.
 */
#include <stdarg.h>
#include <stdio.h>

#include "kernel/printk/console.h"
#include "kernel/base/platform.h"
#include "kernel/base/spinlock.h"

#define PRINTK_SMALL 256
#define PRINTK_LARGE 16384

static char large_buf[PRINTK_LARGE];
static spinlock_t large_lock = SPINLOCK_INIT;

int printk(const char *fmt, ...)
{
	char buf[PRINTK_SMALL];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return n;
	if (n < (int)sizeof(buf)) {
		console_write(buf, n);
		return n;
	}

	unsigned long flags = spin_lock_irqsave(&large_lock);
	va_start(ap, fmt);
	n = vsnprintf(large_buf, sizeof(large_buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(large_buf))
		n = sizeof(large_buf) - 1;
	console_write(large_buf, n);
	spin_unlock_irqrestore(&large_lock, flags);
	return n;
}
