/*
 * mm/meminfo.h - the /proc files of physical memory: /proc/meminfo and
 * /proc/buddyinfo, in Linux's formats.
 */
#ifndef MM_MEMINFO_H
#define MM_MEMINFO_H

#include <stddef.h>

/*
 * meminfo_show - the text of /proc/meminfo into buf (NUL-terminated, at
 * most size bytes with the NUL); returns its length. Lines as Linux's:
 *
 *   MemTotal:         515204 kB
 *   MemFree:          498812 kB
 *   Slab:                 48 kB
 */
int meminfo_show(char *buf, size_t size);

/*
 * buddyinfo_show - the text of /proc/buddyinfo: free blocks of each order
 * 0..MAX_ORDER, as Linux prints them:
 *
 *   Node 0, zone   Normal      1      0      2 ...    122
 */
int buddyinfo_show(char *buf, size_t size);

/* mm_proc_init - create /proc/meminfo and /proc/buddyinfo (/proc must
 * exist). */
void mm_proc_init(void);

#endif
