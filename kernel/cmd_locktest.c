/*
 * kernel/cmd_locktest.c - `locktest RULE`, in the debug build only (make
 * DEBUG=1): break one of the rules kernel/lock_debug.c checks, on
 * purpose, to show that the debug build catches it. Each ends in a panic
 * that names the lock and the rule:
 *
 *   locktest order      A then B, later B then A (an AB-BA deadlock)
 *   locktest recursive  A, then A again
 *   locktest sleep      sleep for a millisecond holding A
 *
 * In the normal build there is no such command.
 */
#ifdef CONFIG_DEBUG_LOCKS
#include <errno.h>
#include <string.h>

#include "kernel/shell_command.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"

static spinlock_t locktest_a = SPINLOCK_INIT;
static spinlock_t locktest_b = SPINLOCK_INIT;

static int cmd_locktest(int argc, char **argv)
{
	if (argc != 2)
		return shell_error(EINVAL, "usage: locktest order|recursive|"
				   "sleep");
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
		msleep(1);  /* panics */
		spin_unlock(&locktest_a);
	} else {
		return shell_error(EINVAL, "usage: locktest order|recursive|"
				   "sleep");
	}
	return shell_error(EINVAL, "the debug build did not catch it");
}
SHELL_COMMAND(locktest, "locktest order|recursive|sleep",
	      "debug build: break a locking rule on purpose (panics)");
#endif
