// SPDX-License-Identifier: MIT
/*
 * kernel/shell/cmd_check.c - the `check` shell command: verify the accounting
 * invariants (mm/memcg/memcg_check.c), the slab allocator's (slab_check:
 * objects held on CPU lists included), the pids controller's task
 * counts (kernel/cgroup/pids.c) and the reaper's (every dead task's stack
 * on its way to being freed: kernel/sched/exit.c), and print
 *
 *   check: ok
 *
 * or one line per failure:
 *
 *   check: FAIL /cgroup/A: kmem usage 20480 bytes, but its kernel pages ...
 *
 * The invariants hold at every instant, but a census of memory taken while
 * other CPUs allocate can catch a charge half made; a failure is only
 * reported if it is seen on every one of a few attempts.
 */
#include <errno.h>
#include <string.h>

#include "kernel/base/shell_command.h"
#include "kernel/cgroup/pids.h"
#include "kernel/sched/exit.h"
#include "mm/memcg/memcg_check.h"
#include "mm/slab.h"

#define CHECK_ATTEMPTS 3
#define CHECK_TEXT_MAX 4096

static int cmd_check(int argc, char **argv)
{
	char *text;
	int failures = 0;

	if (argc > 1)
		return shell_error(EINVAL, "usage: check");
	text = kmalloc(CHECK_TEXT_MAX, GFP_KERNEL);
	if (!text)
		return shell_error(ENOMEM, "no memory for the report");
	for (int attempt = 0; attempt < CHECK_ATTEMPTS; attempt++) {
		size_t len;

		failures = memcg_check(text, CHECK_TEXT_MAX);
		len = strnlen(text, CHECK_TEXT_MAX);
		failures += slab_check(text + len, CHECK_TEXT_MAX - len);
		len = strnlen(text, CHECK_TEXT_MAX);
		failures += pids_check(text + len, CHECK_TEXT_MAX - len);
		len = strnlen(text, CHECK_TEXT_MAX);
		failures += reaper_check(text + len, CHECK_TEXT_MAX - len);
		if (failures == 0)
			break;
	}
	if (failures == 0) {
		printk("check: ok\n");
	} else {
		for (char *line = text, *end; *line; line = end + 1) {
			end = strchr(line, '\n');
			if (!end)
				break;
			*end = '\0';
			printk("check: FAIL %s\n", line);
		}
	}
	kfree(text);
	return 0;
}
SHELL_COMMAND(check, "check", "verify the accounting invariants of every "
	      "domain and page");
