// SPDX-License-Identifier: MIT
/*
 * kernel/shell/cmd_locktest.c - `locktest RULE`, in the debug build only (make
 * DEBUG=1): break one of the rules kernel/locking/lock_debug.c checks, on
 * purpose, to show that the debug build catches it. Each ends in a panic
 * that names the lock and the rule:
 *
 *   locktest order      A then B, later B then A (an AB-BA deadlock)
 *   locktest recursive  A, then A again
 *   locktest sleep      sleep (schedule()) holding A
 *   locktest crosscall  wait for the other CPUs (smp_call_function_all)
 *                       holding A
 *   locktest stuck      A, then spin on A again past the recursion check
 *                       (a deadlock: found after 20 s of spinning)
 *
 * In the normal build there is no such command.
 */
#ifdef CONFIG_DEBUG_LOCKS
#include <errno.h>
#include <string.h>

#include "kernel/base/shell_command.h"
#include "kernel/base/spinlock.h"
#include "kernel/sched/sched.h"

static spinlock_t locktest_a = SPINLOCK_INIT;
static spinlock_t locktest_b = SPINLOCK_INIT;

static void locktest_nothing(void *arg)
{
}

#define LOCKTEST_USAGE "usage: locktest order|recursive|sleep|crosscall|stuck"

static int cmd_locktest(int argc, char **argv)
{
	if (argc != 2)
		return shell_error(EINVAL, LOCKTEST_USAGE);
	if (!strcmp(argv[1], "order")) {
		spin_lock(&locktest_a);
		spin_lock(&locktest_b);  /* B after A: recorded */
		spin_unlock(&locktest_b);
		spin_unlock(&locktest_a);
		printk("locktest: took A then B; now B then A\n");
		spin_lock(&locktest_b);
		spin_lock(&locktest_a);  /* panics */
		spin_unlock(&locktest_a);
		spin_unlock(&locktest_b);
	} else if (!strcmp(argv[1], "recursive")) {
		spin_lock(&locktest_a);
		spin_lock(&locktest_a);  /* panics */
	} else if (!strcmp(argv[1], "sleep")) {
		spin_lock(&locktest_a);
		/* schedule() itself, not msleep(1): msleep returns without
		 * sleeping if the tick comes before it looks at the clock. */
		schedule();  /* panics */
		spin_unlock(&locktest_a);
	} else if (!strcmp(argv[1], "crosscall")) {
		spin_lock(&locktest_a);
		smp_call_function_all(locktest_nothing, NULL);  /* panics */
		spin_unlock(&locktest_a);
	} else if (!strcmp(argv[1], "stuck")) {
		spin_lock(&locktest_a);
		arch_spin_lock(&locktest_a);  /* spins; panics in 20 s */
	} else {
		return shell_error(EINVAL, LOCKTEST_USAGE);
	}
	return shell_error(EINVAL, "the debug build did not catch it");
}
SHELL_COMMAND(locktest, "locktest order|recursive|sleep|crosscall|stuck",
	      "debug build: break a locking rule on purpose (panics)");
#endif
