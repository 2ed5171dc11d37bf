/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcg_v2_oom.h - cgroup v2's OOM killer, which knows kernel
 * memory (Linux: mem_cgroup_out_of_memory, oom_badness,
 * mem_cgroup_get_oom_group).
 */
#ifndef MM_MEMCG_V2_OOM_H
#define MM_MEMCG_V2_OOM_H

#include <stdint.h>

struct mem_cgroup;

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
 * order (each as memcg_v2_oom would) until what they hold covers
 * excess. Does not wait for them. Returns how many were killed.
 */
unsigned int memcg_v2_oom_shrink(struct mem_cgroup *oom, int64_t excess);

#endif
