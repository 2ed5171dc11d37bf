/* SPDX-License-Identifier: MIT */
/*
 * kernel/shell/script.h - boot scripts: shell command sequences run at boot,
 * each line printed after a prompt as if it had been typed.
 */
#ifndef KERNEL_SCRIPT_H
#define KERNEL_SCRIPT_H

struct script {
	const char *name;
	const char *const *lines;  /* NULL-terminated */
	const char *help;
};

/*
 * boot_script_run - run the script named by script=NAME on the command
 * line, then any multiboot module whose command line is "script" (its
 * contents, one command per line). Called by the shell task before the
 * first prompt.
 */
void boot_script_run(void);

/* script_find - the built-in script of that name, or NULL. */
const struct script *script_find(const char *name);

#endif
