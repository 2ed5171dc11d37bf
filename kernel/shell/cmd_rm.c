// SPDX-License-Identifier: MIT
/*
 * kernel/shell/cmd_rm.c - the shell's `rm -r PATH`: remove a directory and
 * everything below it, where the directory's filesystem allows it (/tmp;
 * kernel/fs/tmpfs.c). `rmdir` removes only an empty directory, and a chain
 * of directories thousands deep - what mkdirloop leaves - could never be
 * removed one rmdir at a time: no path that long can be typed.
 */
#include <errno.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/shell/shell.h"
#include "kernel/base/shell_command.h"

static int cmd_rm(int argc, char **argv)
{
	char path[SHELL_PATH_MAX], why[CTL_WHY_MAX];
	int ret;

	if (argc != 3 || strcmp(argv[1], "-r") != 0)
		return shell_error(EINVAL, "usage: rm -r PATH (there are only "
				   "directories to remove)");
	ret = shell_abspath(argv[2], path, sizeof(path));
	if (ret < 0)
		return ret;
	ret = ctl_rmtree(path, why);
	if (ret < 0)
		return shell_error(ret, "%s", why);
	return 0;
}
SHELL_COMMAND(rm, "rm -r PATH",
	      "remove a directory and all below it (in /tmp)");
