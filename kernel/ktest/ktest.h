/* SPDX-License-Identifier: MIT */
/*
 * kernel/ktest/ktest.h - in-kernel tests, run by the shell command `ktest
 * [NAME]` and reported in KTAP (Linux Documentation/dev-tools/ktap.rst).
 *
 *   static void ktest_buddy_split(struct ktest *t)
 *   {
 *           KTEST_EXPECT(t, page != NULL, "order-3 allocation");
 *   }
 *   KTEST(buddy_split);
 *
 * A case fails if any expectation fails; KTEST_EXPECT prints a "# " line
 * with the file, line and message. Cases named with the prefix "panic_"
 * deliberately crash the kernel and are only run when named.
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include <stdbool.h>

#include "kernel/base/section_table.h"

struct ktest {
	const char *name;
	int failures;
};

struct ktest_case {
	const char *name;
	void (*fn)(struct ktest *t);
};

#define KTEST(ident) \
	static const struct ktest_case ktest_case_##ident \
		SECTION_TABLE_ENTRY(ktests) = {#ident, ktest_##ident}

void ktest_fail(struct ktest *t, const char *file, int line, const char *msg);

#define KTEST_EXPECT(t, cond, msg) \
	do { \
		if (!(cond)) \
			ktest_fail((t), __FILE__, __LINE__, (msg)); \
	} while (0)

#endif
