/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcg_v2.h - cgroup v2's memory controller over the same
 * domains (Linux: memory.max, memory.high and memory.events in
 * mm/memcontrol.c).
 *
 * Booted with cgroup=v2, every domain but the root accounts its kernel
 * memory from birth, use_hierarchy is always on, and the res counter is
 * the one counter of user and kernel pages: memory.max is its limit. A
 * kernel charge that res refuses, after the draining and reclaim every
 * charge does, goes to the domain's OOM killer (mm/memcg/memcg_v2.c)
 * and is retried once the victim's memory is back, instead of failing as
 * in the 2012 design. memory.high throttles the tasks of a domain above
 * it at their next fork or user allocation. The files themselves are in
 * kernel/cgroup/cgroup2_memory.c.
 */
#ifndef MM_MEMCG_V2_H
#define MM_MEMCG_V2_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/gfp.h"

struct mem_cgroup;

/* Set once at boot by cgroup=v2 (cgroup_mode_setup); read everywhere. */
extern bool cgroup_v2;

/* memory.events, in the order the file prints them (Linux's names). */
enum memcg_v2_event {
	MEMCG_LOW,
	MEMCG_HIGH,
	MEMCG_MAX,
	MEMCG_OOM,
	MEMCG_OOM_KILL,
	MEMCG_OOM_GROUP_KILL,
	MEMCG_NR_EVENTS,
};

extern const char *const memcg_v2_event_names[MEMCG_NR_EVENTS];

/* A domain's v2 state, inside struct mem_cgroup (member v2). */
struct memcg_v2 {
	unsigned long events[MEMCG_NR_EVENTS];        /* this and below */
	unsigned long events_local[MEMCG_NR_EVENTS];  /* this one only */
	int64_t high;     /* bytes, a page multiple; RES_COUNTER_MAX: max */
	int64_t min, low; /* memory.min, memory.low: bytes */
	/* Protection in the reclaim under way (mm/memcg/memcg_protection.c):
	 * the effective min and low, and the children's claims. */
	int64_t emin, elow, children_min, children_low;
	bool oom_group;   /* memory.oom.group: kill the domain as a whole */
	/* cgroup.freeze (Linux: cgrp->freezer), under memcg_tree_lock: */
	bool freeze;      /* 1 was written here */
	bool e_freeze;    /* here or in an ancestor: its tasks stop */
};

/* memcg_v2_domain_init - a new domain (or the root at boot): v2's
 * defaults, and in v2 its kernel memory accounted from now on. */
void memcg_v2_domain_init(struct mem_cgroup *memcg);

/* memcg_v2_event - count ev in memcg's events_local, and in events of
 * memcg and each ancestor below the root. No-op in v1. Any context. */
void memcg_v2_event(struct mem_cgroup *memcg, enum memcg_v2_event ev,
		    unsigned long n);

/* memcg_v2_reset_events - memcg's memory.events and memory.events.local
 * start again from 0 (its parent turned memory off for it: Linux's next
 * css would start so). Its ancestors keep what it added to theirs. */
void memcg_v2_reset_events(struct mem_cgroup *memcg);

/*
 * memcg_v2_charge_refused - a kernel charge of nr_pages to memcg was
 * refused after draining and reclaim. In v2: OOM-kill in the domain
 * whose limit refused (memcg_v2_oom), and wait for the victim's memory.
 * Returns true: try the charge again; false: give up (v1, a caller that
 * may not sleep, the current task is a victim, or nobody can be killed).
 */
bool memcg_v2_charge_refused(struct mem_cgroup *memcg, gfp_t gfp,
			     unsigned int nr_pages);

/*
 * memcg_v2_set_max - memory.max: set res's limit at once, even below the
 * usage (Linux: xchg), then drain, reclaim, and kill tasks of the domain
 * until what they hold covers the excess. Never refuses. Called from a
 * control-file handler: does not sleep (the victims exit after it).
 */
void memcg_v2_set_max(struct mem_cgroup *memcg, int64_t bytes);

/* memcg_v2_set_high - memory.high: set it, then drain and reclaim down
 * to it if above; never kills, never refuses. */
void memcg_v2_set_high(struct mem_cgroup *memcg, int64_t bytes);

/* Pages of user memory a task allocates in one go between two looks at
 * memory.high (Linux: MEMCG_CHARGE_BATCH, the overage after which it
 * throttles within the charge rather than on the way to user space). */
#define MEMCG_HIGH_BATCH 64

/*
 * memcg_v2_throttle - the current task is about to fork or allocate: if
 * its domain (or an ancestor) is above memory.high, count high, reclaim,
 * and sleep a penalty that grows with the overage (at most 2 s). Task
 * context, no locks held. Cheap and does nothing in v1.
 */
void memcg_v2_throttle(void);

/* cgroup v2's OOM killer, which knows kernel memory (Linux:
 * mem_cgroup_out_of_memory, oom_badness, mem_cgroup_get_oom_group). */
/* oom_score_adj bounds (Linux's): -1000 is never killed. */
#define OOM_SCORE_ADJ_MIN (-1000)
#define OOM_SCORE_ADJ_MAX 1000

enum memcg_v2_oom_result {
	MEMCG_V2_OOM_KILLED,   /* a victim (or a group) was killed */
	MEMCG_V2_OOM_WAIT,     /* one killed before is still on its way out */
	MEMCG_V2_OOM_NOBODY,   /* no task of the subtree can be killed */
};

/*
 * memcg_v2_oom - oom, the domain whose limit refused a charge: count
 * `oom` there, then kill the task of its subtree with the highest score
 * (its charged pages: user pages and its kernel stack, plus
 * oom_score_adj thousandths of the limit; -1000: never), or, if the
 * victim's domain or an ancestor up to oom has memory.oom.group, every
 * task of the highest such domain. Each kill counts `oom_kill` in the
 * killed task's domain (the victim again in a group: Linux's count),
 * and a group `oom_group_kill`. Does not sleep.
 */
enum memcg_v2_oom_result memcg_v2_oom(struct mem_cgroup *oom);

/*
 * memcg_v2_oom_shrink - memory.max was set below the usage of oom by
 * excess bytes, and reclaim could not close the gap: kill tasks in score
 * order, each with its group as memcg_v2_oom would (memory.oom.group),
 * until what they hold covers excess. Does not wait for them.
 */
void memcg_v2_oom_shrink(struct mem_cgroup *oom, int64_t excess);

#endif
