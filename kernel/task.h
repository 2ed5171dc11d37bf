/*
 * kernel/task.h - a task: a thread of kernel execution running a built-in
 * program, with its own 16 KiB kernel stack, in exactly one domain.
 */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include "kernel/list.h"
#include "kernel/platform.h"

#define THREAD_ORDER 2
#define THREAD_SIZE (4096ul << THREAD_ORDER)  /* 16 KiB */

/* task->flags */
#define TASK_SYSTEM (1u << 0)  /* shell, idle, workers: never charged */

struct mem_cgroup;

struct task {
	int pid;
	unsigned int flags;
	struct mem_cgroup *memcg;     /* the domain this task is in */
	struct list_head memcg_node;  /* on memcg->tasks */
	/* User memory (mm/user_memory.c), under user_memory_lock; set up by
	 * mem_cgroup_attach_task / mem_cgroup_fork_task. */
	struct list_head user_rss;    /* its rss pages, linked by page->lru */
	struct list_head user_cache;  /* its cache pages (reclaimable) */
	struct list_head user_node;   /* on user_memory_tasks while it has any */
	unsigned long user_pages;     /* rss + cache pages it holds */
	/* scheduler, stack, program: added by the tasks issue */
};

#endif
