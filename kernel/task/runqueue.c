// SPDX-License-Identifier: MIT
/*
 * kernel/task/runqueue.c - one CPU's run queue, fair between domains (see
 * kernel/task/runqueue.h for the policy). Pure logic: the caller holds the run
 * queue's lock and says how much time has passed.
 */
#include "kernel/task/runqueue.h"

#include <stddef.h>

/* vruntimes grow for ever and may wrap: compare them by difference. */
static inline int64_t vdiff(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

static inline unsigned int group_tasks(const struct rq_group *g)
{
	return READ_ONCE(g->nr_queued) + READ_ONCE(g->nr_running);
}

void rq_init(struct runqueue *rq, uint64_t slice)
{
	for (int i = 0; i < RQ_MAX_GROUPS; i++) {
		rq->groups[i].key = NULL;
		rq->groups[i].vruntime = 0;
		rq->groups[i].nr_queued = 0;
		rq->groups[i].nr_running = 0;
		INIT_LIST_HEAD(&rq->groups[i].queue);
	}
	rq->curr = NULL;
	rq->nr_queued = 0;
	rq->min_vruntime = 0;
	rq->curr_ran = 0;
	rq->slice = slice ? slice : 1;
}

void rq_entity_init(struct rq_entity *e)
{
	INIT_LIST_HEAD(&e->node);
	e->group = -1;
	e->queued = false;
}

/* update_min_vruntime - follow the smallest vruntime of the groups in use,
 * never going back. */
static void update_min_vruntime(struct runqueue *rq)
{
	bool found = false;
	uint64_t min = 0;

	for (int i = 0; i < RQ_MAX_GROUPS; i++) {
		struct rq_group *g = &rq->groups[i];

		if (!g->key)
			continue;
		if (!found || vdiff(g->vruntime, min) < 0)
			min = g->vruntime;
		found = true;
	}
	if (found && vdiff(min, rq->min_vruntime) > 0)
		rq->min_vruntime = min;
}

/*
 * group_get - key's group, made if it has none: a free slot, starting half
 * a slice before min_vruntime. Without a free slot, the last one is shared.
 */
static int group_get(struct runqueue *rq, void *key)
{
	int free = -1;

	for (int i = 0; i < RQ_MAX_GROUPS; i++) {
		if (rq->groups[i].key == key)
			return i;
		if (free < 0 && !rq->groups[i].key)
			free = i;
	}
	if (free < 0)
		return RQ_MAX_GROUPS - 1;  /* overflow: share the last group */
	WRITE_ONCE(rq->groups[free].key, key);
	rq->groups[free].vruntime = rq->min_vruntime - rq->slice / 2;
	return free;
}

/* group_put_if_empty - a group with no task left frees its slot (and
 * forgets its vruntime: a domain that sleeps earns no credit). */
static void group_put_if_empty(struct runqueue *rq, int i)
{
	struct rq_group *g = &rq->groups[i];

	if (g->nr_queued == 0 && g->nr_running == 0)
		WRITE_ONCE(g->key, NULL);
}

static bool wakeup_preempt(const struct runqueue *rq, int woken)
{
	if (!rq->curr)
		return true;  /* the CPU is idle */
	if (rq->curr->group == woken)
		return false;
	return vdiff(rq->groups[rq->curr->group].vruntime,
		     rq->groups[woken].vruntime) >
	       (int64_t)(rq->slice / RQ_WAKEUP_GRAN);
}

/* queue_tail - put e at the back of group i. */
static void queue_tail(struct runqueue *rq, struct rq_entity *e, int i)
{
	struct rq_group *g = &rq->groups[i];

	list_add_tail(&e->node, &g->queue);
	e->group = i;
	e->queued = true;
	WRITE_ONCE(g->nr_queued, g->nr_queued + 1);
	rq->nr_queued++;
}

bool rq_enqueue(struct runqueue *rq, struct rq_entity *e, void *key)
{
	int i = group_get(rq, key);

	queue_tail(rq, e, i);
	return wakeup_preempt(rq, i);
}

void rq_dequeue(struct runqueue *rq, struct rq_entity *e)
{
	struct rq_group *g = &rq->groups[e->group];

	list_del_init(&e->node);
	WRITE_ONCE(g->nr_queued, g->nr_queued - 1);
	rq->nr_queued--;
	group_put_if_empty(rq, e->group);
	e->group = -1;
	e->queued = false;
}

struct rq_entity *rq_pick_next(struct runqueue *rq)
{
	struct rq_group *best = NULL;
	struct rq_entity *e;

	for (int i = 0; i < RQ_MAX_GROUPS; i++) {
		struct rq_group *g = &rq->groups[i];

		if (g->nr_queued == 0)
			continue;
		if (!best || vdiff(g->vruntime, best->vruntime) < 0)
			best = g;
	}
	if (!best)
		return NULL;
	e = list_first_entry(&best->queue, struct rq_entity, node);
	list_del_init(&e->node);
	e->queued = false;
	WRITE_ONCE(best->nr_queued, best->nr_queued - 1);
	WRITE_ONCE(best->nr_running, 1);
	rq->nr_queued--;
	rq->curr = e;
	rq->curr_ran = 0;
	update_min_vruntime(rq);
	return e;
}

void rq_put_prev(struct runqueue *rq, void *requeue_key)
{
	struct rq_entity *e = rq->curr;
	int old;

	if (!e)
		return;
	old = e->group;
	/* Queue it again before its old group can lose its last task, so
	 * that a domain running alone keeps its vruntime. */
	if (requeue_key)
		queue_tail(rq, e, group_get(rq, requeue_key));
	else
		e->group = -1;
	WRITE_ONCE(rq->groups[old].nr_running, 0);
	group_put_if_empty(rq, old);
	rq->curr = NULL;
	update_min_vruntime(rq);
}

void rq_account(struct runqueue *rq, uint64_t delta)
{
	if (!rq->curr)
		return;
	rq->groups[rq->curr->group].vruntime += delta;
	rq->curr_ran += delta;
}

bool rq_tick_preempt(const struct runqueue *rq)
{
	return rq->curr && rq->nr_queued > 0 && rq->curr_ran >= rq->slice;
}

unsigned int rq_nr_tasks(const struct runqueue *rq)
{
	return READ_ONCE(rq->nr_queued) + (READ_ONCE(rq->curr) ? 1 : 0);
}

unsigned int rq_group_tasks(const struct runqueue *rq, void *key)
{
	for (int i = 0; i < RQ_MAX_GROUPS; i++)
		if (READ_ONCE(rq->groups[i].key) == key)
			return group_tasks(&rq->groups[i]);
	return 0;
}

void *rq_key_of(const struct runqueue *rq, const struct rq_entity *e)
{
	return e->group >= 0 ? rq->groups[e->group].key : NULL;
}

/* --- across CPUs ---------------------------------------------------------- */

static int census_find(const struct rq_census *census, void *key)
{
	for (unsigned int i = 0; i < census->nr_keys; i++)
		if (census->key[i] == key)
			return (int)i;
	return -1;
}

void rq_census(struct rq_census *census, struct runqueue *const *rqs,
	       unsigned int nr_rqs, void *ignore)
{
	census->ignore = ignore;
	census->nr_keys = 0;
	for (unsigned int r = 0; r < nr_rqs; r++) {
		for (int i = 0; i < RQ_MAX_GROUPS; i++) {
			const struct rq_group *g = &rqs[r]->groups[i];
			void *key = READ_ONCE(g->key);
			unsigned int n = group_tasks(g);
			int k;

			if (!key || n == 0 || key == ignore)
				continue;
			k = census_find(census, key);
			if (k < 0) {
				if (census->nr_keys == RQ_CENSUS_MAX)
					continue;
				k = (int)census->nr_keys++;
				census->key[k] = key;
				census->total[k] = 0;
			}
			census->total[k] += n;
		}
	}
}

unsigned int rq_census_total(const struct rq_census *census, void *key)
{
	int k = census_find(census, key);

	return k < 0 ? 0 : census->total[k];
}

/* weight_of - the weight of one task of key: RQ_LOAD_SCALE / its domain's
 * runnable tasks (at least the n seen here, if the census missed some). */
static uint64_t weight_of(const struct rq_census *census, void *key,
			  unsigned int n_here)
{
	unsigned int total = rq_census_total(census, key);

	if (key == census->ignore)
		return 0;
	if (total < n_here)
		total = n_here;
	return total ? RQ_LOAD_SCALE / total : 0;
}

uint64_t rq_load(const struct runqueue *rq, const struct rq_census *census)
{
	uint64_t load = 0;

	for (int i = 0; i < RQ_MAX_GROUPS; i++) {
		const struct rq_group *g = &rq->groups[i];
		void *key = READ_ONCE(g->key);
		unsigned int n = group_tasks(g);

		if (key && n)
			load += n * weight_of(census, key, n);
	}
	return load;
}

unsigned int rq_pick_cpu(struct runqueue *const *rqs, unsigned int nr_rqs,
			 void *key, void *ignore, int prefer,
			 struct rq_census *census)
{
	unsigned int best = 0, best_tasks = 0;
	uint64_t best_load = 0;
	unsigned int total;

	rq_census(census, rqs, nr_rqs, ignore);
	total = rq_census_total(census, key);
	for (unsigned int r = 0; r < nr_rqs; r++) {
		uint64_t load = rq_load(rqs[r], census);
		unsigned int mine = rq_group_tasks(rqs[r], key);
		unsigned int tasks = rq_nr_tasks(rqs[r]);

		if (mine > total)
			mine = total;
		/* With one task more, key's tasks here weigh 1/(total+1)
		 * each instead of 1/total, and the new one joins them. */
		if (total)
			load -= mine * (RQ_LOAD_SCALE / total);
		load += (mine + 1) * (RQ_LOAD_SCALE / (total + 1));
		if (r == 0 || load < best_load ||
		    (load == best_load &&
		     ((int)r == prefer ||
		      ((int)best != prefer && tasks < best_tasks)))) {
			best = r;
			best_load = load;
			best_tasks = tasks;
		}
	}
	return best;
}

struct rq_entity *rq_balance_pick(const struct runqueue *src,
				  const struct rq_census *census,
				  uint64_t gap, uint64_t *weight)
{
	const struct rq_group *best = NULL;
	uint64_t best_w = 0;

	for (int i = 0; i < RQ_MAX_GROUPS; i++) {
		const struct rq_group *g = &src->groups[i];
		uint64_t w;

		if (!g->key || g->nr_queued == 0)
			continue;
		w = weight_of(census, g->key, group_tasks(g));
		if (w > 0 && w < gap && w > best_w) {
			best = g;
			best_w = w;
		}
	}
	if (!best)
		return NULL;
	*weight = best_w;
	/* The task queued last: it has waited least, so loses least. */
	return list_entry(best->queue.prev, struct rq_entity, node);
}
