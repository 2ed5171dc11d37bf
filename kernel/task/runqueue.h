/* SPDX-License-Identifier: MIT */
/*
 * kernel/task/runqueue.h - one CPU's run queue, fair between domains: the pure
 * logic of the scheduler (no locks, no clock), compiled for the kernel and
 * for the host unit tests (tests/unit/test_runqueue.c).
 *
 * A run queue holds the runnable tasks of one CPU, grouped by domain: one
 * group per domain that has runnable tasks here. The CPU's time is shared
 * among the groups, then among each group's tasks:
 *
 *   - Each group has a virtual runtime, the time its tasks have run on this
 *     CPU. The next task comes from the group with the smallest one, so
 *     every group that wants the CPU gets the same share of it - a domain
 *     with 2000 runnable tasks gets no more than a domain with one (Linux's
 *     CFS group scheduling, with every group's weight equal).
 *   - Within a group, tasks take turns (round robin, FIFO). A task runs for
 *     at most a slice before the CPU goes to whoever is next.
 *   - A group that becomes runnable starts at the queue's min_vruntime,
 *     less half a slice: a domain that sleeps gets no credit for the time
 *     it slept, but it runs soon after it wakes (a shell answers a key
 *     press at once). If the woken group is behind the running one by more
 *     than RQ_WAKEUP_GRAN of a slice, the running task is preempted.
 *
 * The running task (curr) is not on any queue; its group counts it in
 * nr_running, so that the group (and its vruntime) lives while it runs.
 *
 * Across CPUs, rq_census() and rq_load() weigh each CPU's tasks: a task of
 * a domain with N runnable tasks in all weighs 1/N, so every domain weighs
 * 1 in total wherever its tasks are. rq_pick_cpu() places a new task where
 * the heaviest CPU ends up lightest, and rq_balance_pick() chooses which
 * task an idle or lighter CPU pulls from a heavier one. (Group scheduling
 * across CPUs in Linux balances the same per-group load.)
 *
 * Keys: a domain is known here only by an opaque pointer (the scheduler
 * passes the task's struct mem_cgroup, or its own key for system tasks).
 * Time: any unit, as long as the caller is consistent (the kernel uses TSC
 * cycles).
 */
#ifndef KERNEL_RUNQUEUE_H
#define KERNEL_RUNQUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/base/list.h"

/* Groups (domains with runnable tasks) one CPU keeps apart. When more
 * domains than this are runnable on one CPU, the extra ones share the
 * last group (they are then fair only among themselves as a whole). */
#define RQ_MAX_GROUPS 32

/* A woken group preempts the running one when it is behind it by more than
 * slice / RQ_WAKEUP_GRAN. */
#define RQ_WAKEUP_GRAN 4

/* The weight of a whole domain in rq_load(). */
#define RQ_LOAD_SCALE (1ull << 20)

/* rq_entity - what a task is to its run queue (embedded in struct task). */
struct rq_entity {
	struct list_head node;  /* on its group's queue, while queued */
	int group;              /* index of its group, -1 if not on a queue */
	bool queued;            /* waiting on a queue (not running) */
};

struct rq_group {
	void *key;               /* the domain; NULL: the slot is free */
	uint64_t vruntime;       /* time its tasks have run on this CPU */
	unsigned int nr_queued;  /* tasks waiting in queue */
	unsigned int nr_running; /* 1 if curr is one of its tasks */
	struct list_head queue;  /* waiting tasks, by rq_entity.node */
};

struct runqueue {
	struct rq_group groups[RQ_MAX_GROUPS];
	struct rq_entity *curr;  /* the running task, NULL when idle */
	unsigned int nr_queued;  /* tasks waiting, all groups */
	uint64_t min_vruntime;   /* never decreases; new groups start here */
	uint64_t curr_ran;       /* time curr has run since it was picked */
	uint64_t slice;          /* the most a task runs before others */
};

/* rq_init - an empty run queue whose tasks run for slice time units. */
void rq_init(struct runqueue *rq, uint64_t slice);

/* rq_entity_init - a task that is on no run queue. */
void rq_entity_init(struct rq_entity *e);

/*
 * rq_enqueue - e becomes runnable here, in key's group, at the back of
 * that group's queue. e must not be on a run queue. Returns true if the
 * running task should give way to it (wakeup_preempt, runqueue.c).
 */
bool rq_enqueue(struct runqueue *rq, struct rq_entity *e, void *key);

/* rq_dequeue - take a waiting (queued, not running) e off the queue. */
void rq_dequeue(struct runqueue *rq, struct rq_entity *e);

/*
 * rq_pick_next - the next task to run: the first of the group with the
 * smallest vruntime. It leaves the queue and becomes curr. NULL when
 * nothing is queued. curr must be NULL (rq_put_prev first).
 */
struct rq_entity *rq_pick_next(struct runqueue *rq);

/*
 * rq_put_prev - curr stops running. With requeue_key non-NULL it is still
 * runnable and goes to the back of that key's group (the task may have
 * moved to another domain meanwhile); with NULL it leaves the run queue
 * (it sleeps or has exited).
 */
void rq_put_prev(struct runqueue *rq, void *requeue_key);

/* rq_account - curr has run for delta more time units. */
void rq_account(struct runqueue *rq, uint64_t delta);

/* rq_tick_preempt - has curr used its slice while others wait? */
bool rq_tick_preempt(const struct runqueue *rq);

/* rq_nr_tasks - tasks here, running one included. */
unsigned int rq_nr_tasks(const struct runqueue *rq);

/* rq_group_tasks - tasks of key's group here, running one included. */
unsigned int rq_group_tasks(const struct runqueue *rq, void *key);

/* rq_key_of - the key of e's group (e on this run queue), or NULL. */
void *rq_key_of(const struct runqueue *rq, const struct rq_entity *e);

/* --- across CPUs ---------------------------------------------------------- */

#define RQ_CENSUS_MAX 128

/*
 * rq_census - runnable tasks of each domain on all the run queues given.
 * The run queues are read without their locks (a snapshot that may be a
 * little out of date is good enough to balance by); keys beyond
 * RQ_CENSUS_MAX are left out (rq_census_total then says 0), and so is
 * ignore: a domain that weighs nothing (the kernel's system tasks, which
 * run in short bursts - a shell that answers a command should not push
 * the workers off its CPU).
 */
struct rq_census {
	void *ignore;
	unsigned int nr_keys;
	void *key[RQ_CENSUS_MAX];
	unsigned int total[RQ_CENSUS_MAX];
};

void rq_census(struct rq_census *census, struct runqueue *const *rqs,
	       unsigned int nr_rqs, void *ignore);

/* rq_census_total - runnable tasks of key on all CPUs (0: not counted). */
unsigned int rq_census_total(const struct rq_census *census, void *key);

/*
 * rq_load - the weight of a run queue: the sum over its groups of
 * RQ_LOAD_SCALE * (the group's tasks here) / (the domain's tasks on all
 * CPUs). A CPU running one domain's only task weighs RQ_LOAD_SCALE; so does
 * one running all 40 tasks of another.
 */
uint64_t rq_load(const struct runqueue *rq, const struct rq_census *census);

/*
 * rq_pick_cpu - where a new (or woken) task of key should go: the run
 * queue whose load, once the task is added (and key's other tasks weigh a
 * little less for it), is smallest; ties go to prefer (the CPU a woken
 * task last ran on; -1: none), then to the one with fewer tasks, then to
 * the lowest index. scratch holds the census it takes (of all keys but
 * ignore, as rq_census). Returns an index into rqs.
 */
unsigned int rq_pick_cpu(struct runqueue *const *rqs, unsigned int nr_rqs,
			 void *key, void *ignore, int prefer,
			 struct rq_census *scratch);

/*
 * rq_balance_pick - a waiting task of src to move to a CPU that is lighter
 * by gap (in rq_load units): from the group whose tasks weigh most among
 * those that weigh less than gap (moving it shrinks the difference).
 * Returns the entity (still queued on src: rq_dequeue it), or NULL if no
 * move would help. *weight is set to the moved task's weight.
 */
struct rq_entity *rq_balance_pick(const struct runqueue *src,
				  const struct rq_census *census,
				  uint64_t gap, uint64_t *weight);

#endif
