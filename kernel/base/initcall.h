/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/initcall.h - start-up functions that register themselves.
 *
 * A driver or subsystem that must be started at boot marks its function
 * with INITCALL(level, fn) in its own file; the start-up code runs each
 * level's table at its place in the boot order, and so never names the
 * function. The levels, in the order they run:
 *
 *   bus     buses (PCI): interrupts still off, every CPU up;
 *   device  devices on them, and their interrupts (kmain, after bus);
 *   fs      control files under /proc (the tree exists; no tasks yet);
 *   task    system tasks a driver needs (the scheduler runs).
 *
 * Within a level, functions run in link order (the Makefile links the
 * folders in sorted order); a function that needs another first belongs
 * to a later level.
 */
#ifndef KERNEL_INITCALL_H
#define KERNEL_INITCALL_H

#include "kernel/base/section_table.h"

struct initcall {
	const char *name;
	void (*fn)(void);
};

/* INITCALL - run fn() at start-up, with the other functions of level. */
#define INITCALL(level, fn) \
	static const struct initcall initcall_##level##_##fn \
		SECTION_TABLE_ENTRY(initcalls_##level) = {#fn, fn}

/* initcalls_run - call every function of level, in link order. */
#define initcalls_run(level) \
	do { \
		section_table_for_each(const struct initcall, \
				       initcalls_##level, c) \
			c->fn(); \
	} while (0)

#endif
