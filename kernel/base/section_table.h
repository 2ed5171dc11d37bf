/* SPDX-License-Identifier: MIT */
/*
 * kernel/base/section_table.h - tables assembled by the linker.
 *
 * A subsystem adds an entry to a table (a shell command, an in-kernel test,
 * a benchmark) from its own file, with no central list to edit: each entry
 * is placed in a named ELF section, and the linker's __start_NAME and
 * __stop_NAME symbols bound the array. Works in the kernel (linker.ld keeps
 * the sections) and in host programs (GNU ld does it by itself).
 */
#ifndef KERNEL_SECTION_TABLE_H
#define KERNEL_SECTION_TABLE_H

#define SECTION_TABLE_ENTRY(table) \
	__attribute__((used, section(#table), aligned(8)))

#define section_table_for_each(type, table, it) \
	extern type __start_##table[], __stop_##table[]; \
	for (type *it = __start_##table; it < __stop_##table; it++)

#endif
