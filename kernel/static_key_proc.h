/* SPDX-License-Identifier: MIT */
/*
 * kernel/static_key_proc.h - /proc/static_keys (kernel/static_key_proc.c).
 */
#ifndef KERNEL_STATIC_KEY_PROC_H
#define KERNEL_STATIC_KEY_PROC_H

/* static_key_proc_init - add /proc/static_keys (/proc must exist). */
void static_key_proc_init(void);

#endif
