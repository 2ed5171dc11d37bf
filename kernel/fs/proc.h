/* SPDX-License-Identifier: MIT */
/*
 * kernel/fs/proc.h - where the files of /proc are made. Each subsystem
 * computes what its files say; kernel/fs/ makes the files, so the
 * dependency runs from the file tree to the subsystem and never back.
 */
#ifndef KERNEL_PROC_H
#define KERNEL_PROC_H

/* proc_init - add the machine's and the scheduler's files under /proc
 * (which must exist): /proc/cpuinfo, /proc/sched (kernel/fs/proc.c). */
void proc_init(void);

/* proc_mm_init - add the memory manager's files under /proc (which must
 * exist): meminfo, buddyinfo, numa, slabinfo, fail_page_alloc,
 * fail_page_injected and sys/debug_check_on_free (kernel/fs/proc_mm.c). */
void proc_mm_init(void);

#endif
