/* SPDX-License-Identifier: MIT */
/*
 * mm/memcg/memcg_id.h - domain ids: a number from 1 to MEM_CGROUP_ID_MAX
 * for every domain alive, visible or dying (Linux: mem_cgroup_idr,
 * mem_cgroup_id_max). The number of ids is the number of domains there
 * may be: past it, mkdir fails with ENOSPC and changes nothing. The root
 * has id 0, which is never handed out.
 */
#ifndef MM_MEMCG_ID_H
#define MM_MEMCG_ID_H

/* The most domains besides the root (Linux: MEM_CGROUP_ID_MAX, 65535). */
#define MEM_CGROUP_ID_MAX 65535

/*
 * memcg_id_alloc - the lowest free id, or -ENOSPC when all ids up to the
 * limit are taken. The limit is MEM_CGROUP_ID_MAX, or less with the boot
 * option memcg_id_max=N (for tests: the limit reached in a few mkdirs).
 * Bounded work: a look at 16 words, then at one.
 */
int memcg_id_alloc(void);

/* memcg_id_free - id may be handed out again. */
void memcg_id_free(int id);

/* memcg_id_limit - the highest id that may be handed out. */
unsigned int memcg_id_limit(void);

#endif
