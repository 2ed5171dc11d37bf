/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/panic.h - stopping the kernel when it finds a bug in itself.
 *
 * panic(fmt, ...) (declared in kernel/base/platform.h) prints "panic: " and the
 * message, a backtrace, and ends the machine: QEMU exits with status 3.
 * Messages name the object and the invariant that was broken, e.g.
 * "free_pages: pfn 0x1234: double free".
 */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include <stdbool.h>

/* panic_begin - stop the other CPUs and take the console for ourselves. */
void panic_begin(void);
/* panic_end - exit QEMU with status 3, or halt forever on hardware. */
_Noreturn void panic_end(void);
/* panic_in_progress - true once any CPU has begun to panic. */
bool panic_in_progress(void);

#endif
