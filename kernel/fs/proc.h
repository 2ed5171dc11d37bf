/* SPDX-License-Identifier: MIT */
/*
 * kernel/fs/proc.h - /proc files about the machine itself (/proc/cpuinfo).
 */
#ifndef KERNEL_PROC_H
#define KERNEL_PROC_H

/* proc_init - add the machine's files under /proc (which must exist). */
void proc_init(void);

#endif
