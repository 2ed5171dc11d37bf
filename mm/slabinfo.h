/* SPDX-License-Identifier: MIT */
/*
 * mm/slabinfo.h - /proc/slabinfo: one line per slab cache, in Linux's
 * format ("slabinfo - version: 2.1"), each domain's child caches as
 * "name(domain)" beside their root caches.
 */
#ifndef MM_SLABINFO_H
#define MM_SLABINFO_H

#include <stddef.h>

/*
 * slabinfo_show - the start of /proc/slabinfo into buf (NUL-terminated):
 * the two header lines, then one line per cache in creation order, as
 * many whole lines as fit (the first piece of the file, which the shell's
 * cat reads to the end piece by piece). Returns the length.
 */
int slabinfo_show(char *buf, size_t size);

/* slabinfo_proc_init - create /proc/slabinfo (proc: the /proc node). */
struct ctl_node;
void slabinfo_proc_init(struct ctl_node *proc);

#endif
