/* SPDX-License-Identifier: MIT */
/*
 * kernel/lib/cmdline.h - the kernel command line: "smp=2 script=demo quiet".
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

/* cmdline_set - remember the command line (copied). */
void cmdline_set(const char *line);
/* cmdline_value - copy the value of key=value into buf; false if absent. */
bool cmdline_value(const char *key, char *buf, size_t size);

#endif
