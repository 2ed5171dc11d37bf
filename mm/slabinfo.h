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

/*
 * slabinfo_print - every record of /proc/slabinfo to out: the header (one
 * record of two lines), then a line per cache; stops early if out wants no
 * more. However many domains there are, kernel/fs/proc_mm.c serves the
 * file a piece at a time with it (kernel/fs/ctlfs.h, "Long files").
 */
struct emitter;
void slabinfo_print(const struct emitter *out);

#endif
