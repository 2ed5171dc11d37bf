/* SPDX-License-Identifier: MIT */
/*
 * kernel/fs/proc.h - where the files of /proc are made. Each subsystem
 * computes what its files say; kernel/fs/ makes the files, so the
 * dependency runs from the file tree to the subsystem and never back.
 */
#ifndef KERNEL_PROC_H
#define KERNEL_PROC_H

struct ctl_node;
struct ctl_ops;

/* proc_root_ops - the handlers of /proc itself: its lookup makes the
 * directory /proc/PID of a task when it is first looked up
 * (kernel/fs/proc_pid.c). The start-up code makes /proc with them. */
extern const struct ctl_ops proc_root_ops;

/* proc_pid_add_file - every /proc/PID directory made from now on has the
 * file name with ops; its private pointer is the PID (proc_pid_of). At
 * boot, before tasks look at /proc; at most a few files. */
void proc_pid_add_file(const char *name, const struct ctl_ops *ops);

/* proc_pid_of - the PID a file of /proc/PID belongs to. */
int proc_pid_of(struct ctl_node *file);

/* proc_init - add the machine's and the scheduler's files under /proc
 * (which must exist): /proc/cpuinfo, /proc/sched (kernel/fs/proc.c). */
void proc_init(void);

/* proc_mm_init - add the memory manager's files under /proc (which must
 * exist): meminfo, buddyinfo, numa, slabinfo, swaps, fail_page_alloc,
 * fail_page_injected and sys/debug_check_on_free (kernel/fs/proc_mm.c). */
void proc_mm_init(void);

#endif
