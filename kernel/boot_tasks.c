/*
 * kernel/boot_tasks.c - after the hardware: the control-file tree and the
 * shell.
 */
#include "kernel/boot_tasks.h"

#include "kernel/cgroupfs.h"
#include "kernel/ctlfs.h"
#include "kernel/platform.h"
#include "kernel/proc.h"
#include "kernel/script.h"
#include "kernel/shell.h"
#include "mm/meminfo.h"

_Noreturn void start_kernel_services(void)
{
	struct ctl_node *root = ctl_root();
	if (!ctl_create_dir(root, "proc", NULL, NULL))
		panic("ctlfs: cannot create /proc");
	proc_init();
	if (cgroupfs_init() < 0)
		panic("cgroupfs: cannot create /cgroup");
	mm_proc_init();
	boot_script_run();
	shell_run();
	panic("shell: shell_run returned");
}
