/* SPDX-License-Identifier: MIT */
/*
 * kernel/init/boot_tasks.h - what runs once the machine is up.
 */
#ifndef KERNEL_BOOT_TASKS_H
#define KERNEL_BOOT_TASKS_H

/*
 * start_kernel_services - create the control-file tree (/proc, /cgroup),
 * then run the shell (and the boot script of script=NAME). Called by kmain
 * on the boot CPU with interrupts on; does not return.
 */
_Noreturn void start_kernel_services(void);

#endif
