/* SPDX-License-Identifier: MIT */
/*
 * kernel/lib/memparse.h - parsing the numbers written to control files.
 *
 * memparse_size() reads the size syntax of the v1 control files
 * (docs/interface.md), the syntax of Linux's
 * memparse() as the 2012 res_counter used it for memory.limit_in_bytes:
 *
 *   4096  0x1000  64k  64K  8m  8M  1g  1G      a size in bytes
 *   -1                                          unlimited
 *
 * Sizes are rounded up to a multiple of the page size (4096). Anything else
 * is -EINVAL: "1.0", "1xx", "xx", "", "-2", "-0", " 1", "1 ", "1kk", "+1",
 * "0x", "1T", a number that does not fit in 63 bits.
 *
 * Decisions where Linux and this interface differ, or Linux is silent:
 *  - A leading 0 does not mean octal ("010" is ten; Linux would read
 *    eight): the interface has decimal and 0x hex only.
 *  - Rounding up saturates at unlimited: every value above the last page
 *    multiple below 2^63 (0x7ffffffffffff000), up to 2^63 - 1, is
 *    SIZE_UNLIMITED. In particular 9223372036854775807, which is what an
 *    unlimited limit reads back as, is unlimited again when written, so
 *    `echo $(cat f) > f` changes nothing.
 *  - Only the suffixes k/K, m/M and g/G; at most one.
 *  - No whitespace anywhere (the shell has split the line into words).
 */
#ifndef KERNEL_MEMPARSE_H
#define KERNEL_MEMPARSE_H

#include <stdint.h>

/* What sizes are rounded up to: the page size. kernel/lib does not use
 * mm/, so the number is written here; kernel/cgroup/cgroupfs.c, which
 * hands the sizes to mm/, checks at compile time that it is PAGE_SIZE. */
#define MEMPARSE_ALIGN 4096u

/* The value of an unlimited counter; reads back as 9223372036854775807. */
#define SIZE_UNLIMITED ((uint64_t)INT64_MAX)

/*
 * memparse_size - parse a size as written to memory.limit_in_bytes.
 * @s:     the text, NUL-terminated
 * @bytes: where the result goes: a multiple of 4096, or SIZE_UNLIMITED
 *
 * Returns 0, or -EINVAL (and *bytes is left unchanged).
 */
int memparse_size(const char *s, uint64_t *bytes);

/*
 * memparse_linux - a size as Linux's memparse() reads it: the syntax of
 * cgroup v2's memory.max, memory.high, memory.min and memory.low. A
 * number in C's notation without a sign (decimal, 0x hex, or octal after
 * a leading 0: "010" is eight here) and at most one suffix k, m, g, t, p
 * or e, in either case. Nothing else, no blanks. Returns 0, or -EINVAL
 * (*bytes unchanged), also for a size past 2^64 - 1, which Linux would
 * wrap around without a word.
 */
int memparse_linux(const char *s, uint64_t *bytes);

/*
 * parse_c_int - an integer as Linux's kstrtoll(s, 0) reads it: the syntax
 * of cgroup v2's integer files (pids.max, cgroup.procs, cgroup.kill,
 * cgroup.max.*, memory.oom.group). An optional + or -, then decimal, 0x
 * hex or, after a leading 0, octal digits ("0x10" and "020" are both
 * 16); nothing else, no blanks. Returns 0, -EINVAL (not such a number) or
 * -ERANGE (it does not fit in 64 bits); *out is unchanged on failure.
 */
int parse_c_int(const char *s, long long *out);

/*
 * parse_int - parse a decimal integer (a PID, a 0/1 flag, milliseconds).
 * @s:   an optional '-' and one or more decimal digits, nothing else
 * @out: the value
 *
 * Returns 0, or -EINVAL for anything else or a value that does not fit in a
 * long (*out is then left unchanged).
 */
int parse_int(const char *s, long *out);

#endif
