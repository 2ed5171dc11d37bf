// SPDX-License-Identifier: MIT
/*
 * kernel/ktest/ktest.c - the in-kernel test runner: `ktest [NAME]` at the
 * shell.
 *
 * Runs every case of the `ktests` table (or the one named) and reports in
 * KTAP: "KTAP version 1", the plan "1..N", then "ok N name" or
 * "not ok N name" per case, with "# " diagnostics. Cases whose name starts
 * with "panic_" crash the kernel on purpose and run only when named.
 */
#include "kernel/ktest/ktest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/base/platform.h"
#include "kernel/base/shell_command.h"

void ktest_fail(struct ktest *t, const char *file, int line, const char *msg)
{
	t->failures++;
	printk("# %s: %s:%d: expected: %s\n", t->name, file, line, msg);
}

static bool is_panic_case(const struct ktest_case *c)
{
	return !strncmp(c->name, "panic_", 6);
}

static int cmd_ktest(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	int planned = 0, number = 0, failed = 0;

	if (argc > 2)
		return shell_error(EINVAL, "usage: ktest [NAME]");
	section_table_for_each(const struct ktest_case, ktests, c) {
		if (only ? !strcmp(c->name, only) : !is_panic_case(c))
			planned++;
	}
	if (only && planned == 0)
		return shell_error(ENOENT, "no test named '%s'", only);

	printk("KTAP version 1\n1..%d\n", planned);
	section_table_for_each(const struct ktest_case, ktests, c) {
		if (only ? strcmp(c->name, only) != 0 : is_panic_case(c))
			continue;
		struct ktest t = {.name = c->name, .failures = 0};
		c->fn(&t);
		number++;
		if (t.failures)
			failed++;
		printk("%sok %d %s\n", t.failures ? "not " : "", number,
		       c->name);
	}
	printk("# ktest: %d passed, %d failed\n", number - failed, failed);
	return 0;
}
SHELL_COMMAND(ktest, "ktest [NAME]", "run in-kernel tests (KTAP output)");

/* A deliberate fault, to show (and test) what a kernel bug looks like. */
static void ktest_panic_page_fault(struct ktest *t)
{
	volatile uint64_t *bad = (volatile uint64_t *)0xdead0000ull;
	*bad = 1;
	KTEST_EXPECT(t, false, "the write above faults");
}
KTEST(panic_page_fault);

/* panic() itself, with a message naming the object and the invariant. */
static void ktest_panic_invariant(struct ktest *t)
{
	panic("ktest: object 'panic_invariant': "
	      "invariant 'never reached' broken");
}
KTEST(panic_invariant);

/* The console and formatting work (newlib's snprintf in the kernel). */
static void ktest_printk_format(struct ktest *t)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%d %s %#lx %5u|", -42, "ok", 255ul, 7u);
	KTEST_EXPECT(t, !strcmp(buf, "-42 ok 0xff     7|"), "snprintf formats");
}
KTEST(printk_format);

/* Every CPU that came up answers a function call. */
static void count_cpu(void *arg)
{
	__atomic_fetch_add((int *)arg, 1, __ATOMIC_RELAXED);
}

static void ktest_smp_call_function(struct ktest *t)
{
	for (int round = 0; round < 100; round++) {
		int count = 0;
		smp_call_function_all(count_cpu, &count);
		if (count != (int)nr_cpus) {
			KTEST_EXPECT(t, count == (int)nr_cpus,
				     "every CPU ran the function");
			return;
		}
	}
}
KTEST(smp_call_function);
