/* SPDX-License-Identifier: MIT */
/*
 * mm/gfp.h - allocation flags ("get free pages"), with Linux's names.
 */
#ifndef MM_GFP_H
#define MM_GFP_H

typedef unsigned int gfp_t;

#define __GFP_ZERO    0x01u  /* return zeroed memory */
#define __GFP_NOFAIL  0x02u  /* caller cannot handle failure; never charged */
#define __GFP_KMEMCG  0x04u  /* charge to the current task's domain */
#define __GFP_NOWARN  0x08u  /* failure is expected; do not log it */
#define __GFP_ATOMIC  0x10u  /* may not sleep (interrupt context, locks held) */

/* The newer Linux name for __GFP_KMEMCG; both mean the same here. */
#define __GFP_ACCOUNT __GFP_KMEMCG

#define GFP_KERNEL   0u
#define GFP_ATOMIC   __GFP_ATOMIC
#define GFP_ACCOUNT  (GFP_KERNEL | __GFP_KMEMCG)

/* Kernel stacks of tasks are charged to the task's domain (Linux 2012). */
#define THREADINFO_GFP_ACCOUNTED (GFP_KERNEL | __GFP_KMEMCG)

#endif
