// SPDX-License-Identifier: MIT
/*
 * kernel/init/boot_tasks.c - after the hardware: the control-file tree and its
 * /proc files, the task table, the scheduler, the reaper, the console's
 * wait queue, and the shell - a system task; kmain's context becomes the
 * boot CPU's idle task. start_kernel_services() is the order, read from
 * top to bottom; kmain (kernel/init/main.c) holds the order before it.
 */
#include "kernel/init/boot_tasks.h"

#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/sched/exit.h"
#include "kernel/sched/fork.h"
#include "kernel/base/initcall.h"
#include "kernel/base/platform.h"
#include "kernel/printk/console.h"
#include "kernel/fs/proc.h"
#include "kernel/sched/program.h"
#include "kernel/sched/sched.h"
#include "kernel/shell/script.h"
#include "kernel/shell/shell.h"
#include "kernel/static_key_proc.h"
#include "kernel/sched/task_table.h"
#include "kernel/trace/trace.h"
#include "kernel/tracefs/tracefs.h"
#include "kernel/fs/tmpfs.h"
#include "mm/fail_page.h"
#include "mm/watermark.h"

/* The shell task: the boot script, then the prompt, for ever. */
static void shell_main(struct task *self, const char *arg)
{
	/* failpage=N is turned on here, not by the boot CPU: every start-up
	 * allocation, the shell's own task included, is done, and the first
	 * prompt comes after the injection is on and its message is out -
	 * not in the middle of the answer to a first command. */
	fail_page_apply_cmdline();
	boot_script_run();
	shell_run();
	panic("shell: shell_run returned");
}

static const struct program shell_program = {
	.name = "shell",
	.main = shell_main,
};

_Noreturn void start_kernel_services(void)
{
	struct ctl_node *root = ctl_root();
	if (!ctl_create_dir(root, "proc", &proc_root_ops, NULL))
		panic("ctlfs: cannot create /proc");
	proc_init();
	if (cgroupfs_init() < 0)
		panic("cgroupfs: cannot create /cgroup");
	proc_mm_init();
	if (tmpfs_init() < 0)
		panic("tmpfs: cannot create /tmp");
	static_key_proc_init();
	initcalls_run(fs);      /* the drivers' /proc files */
	/* the tracer, and /sys/kernel/tracing; the rings come with the
	 * first event */
	trace_init();
	trace_fs_init();
	watermark_init();
	task_table_init();      /* before the first task */
	sched_start();          /* kmain's context is now the idle task */
	reaper_start();         /* the first task: frees exited tasks' stacks */
	console_sleep_on_input();  /* readers sleep on a wait queue from now */
	initcalls_run(task);    /* the drivers' system tasks (USB hot-plug) */
	if (task_spawn_system(&shell_program, "") < 0)
		panic("shell: cannot create the shell task");
	cpu_idle_loop();
}
