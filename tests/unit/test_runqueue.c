// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_runqueue.c - the scheduler's run-queue logic
 * (kernel/task/runqueue.c) on the host: round robin inside a domain, equal
 * shares between domains whatever their number of tasks, slices, wake-up
 * preemption, and the placement and balancing of tasks across CPUs.
 *
 * A simulated CPU runs the task rq_pick_next() gives it for one time unit
 * at a time, puts it back when its slice is used, and the test counts the
 * units each domain got.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/task/runqueue.h"

#define SLICE 4
#define MAX_TASKS 3000

struct sim_task {
	struct rq_entity se;
	void *key;
	unsigned long ran;
};

static struct sim_task tasks[MAX_TASKS];
static int key_a, key_b, key_c;
static struct rq_census scratch;  /* their addresses are the domains */
#define A ((void *)&key_a)
#define B ((void *)&key_b)
#define C ((void *)&key_c)

static struct sim_task *task_of(struct rq_entity *e)
{
	return container_of(e, struct sim_task, se);
}

static void make_tasks(int from, int n, void *key)
{
	for (int i = from; i < from + n; i++) {
		rq_entity_init(&tasks[i].se);
		tasks[i].key = key;
		tasks[i].ran = 0;
	}
}

/* run - simulate units time units on rq: each unit, the running task runs
 * (picked if none), and at the end of its slice goes to the back. */
static void run(struct runqueue *rq, int units)
{
	for (int t = 0; t < units; t++) {
		if (!rq->curr && !rq_pick_next(rq))
			continue;
		rq_account(rq, 1);
		task_of(rq->curr)->ran++;
		if (rq_tick_preempt(rq)) {
			struct sim_task *p = task_of(rq->curr);

			rq_put_prev(rq, p->key);
		}
	}
}

static unsigned long ran_of(int from, int n)
{
	unsigned long sum = 0;

	for (int i = from; i < from + n; i++)
		sum += tasks[i].ran;
	return sum;
}

static void test_empty(void **state)
{
	struct runqueue rq;

	rq_init(&rq, SLICE);
	assert_null(rq_pick_next(&rq));
	assert_int_equal(rq_nr_tasks(&rq), 0);
	assert_false(rq_tick_preempt(&rq));
	rq_put_prev(&rq, NULL);  /* nothing running: nothing happens */
}

/* One domain: its tasks take turns, a slice each, in FIFO order. */
static void test_round_robin(void **state)
{
	struct runqueue rq;

	rq_init(&rq, SLICE);
	make_tasks(0, 3, A);
	for (int i = 0; i < 3; i++)
		rq_enqueue(&rq, &tasks[i].se, A);
	assert_int_equal(rq_nr_tasks(&rq), 3);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 3; i++) {
			struct rq_entity *e = rq_pick_next(&rq);

			assert_ptr_equal(e, &tasks[i].se);
			assert_int_equal(rq_nr_tasks(&rq), 3);
			rq_account(&rq, SLICE - 1);
			assert_false(rq_tick_preempt(&rq));
			rq_account(&rq, 1);
			assert_true(rq_tick_preempt(&rq));
			rq_put_prev(&rq, A);
		}
	}
}

/* A task alone is never preempted by its slice (nothing else waits). */
static void test_alone_keeps_cpu(void **state)
{
	struct runqueue rq;

	rq_init(&rq, SLICE);
	make_tasks(0, 1, A);
	rq_enqueue(&rq, &tasks[0].se, A);
	assert_non_null(rq_pick_next(&rq));
	rq_account(&rq, 100 * SLICE);
	assert_false(rq_tick_preempt(&rq));
}

/* A domain with 2000 tasks gets no more of the CPU than one with one. */
static void test_fair_between_domains(void **state)
{
	struct runqueue rq;

	rq_init(&rq, SLICE);
	make_tasks(0, 2000, A);
	make_tasks(2000, 1, B);
	for (int i = 0; i < 2001; i++)
		rq_enqueue(&rq, &tasks[i].se, tasks[i].key);
	run(&rq, 100000);
	unsigned long a = ran_of(0, 2000), b = ran_of(2000, 1);
	assert_int_equal(a + b, 100000);
	assert_true(b >= 49000 && b <= 51000);
	/* and inside A, round robin: 50000 units over 2000 tasks */
	for (int i = 0; i < 2000; i++)
		assert_true(tasks[i].ran >= 20 && tasks[i].ran <= 32);
}

/* Three domains of 1, 10 and 100 tasks: a third each. */
static void test_three_domains(void **state)
{
	struct runqueue rq;

	rq_init(&rq, SLICE);
	make_tasks(0, 1, A);
	make_tasks(1, 10, B);
	make_tasks(11, 100, C);
	for (int i = 0; i < 111; i++)
		rq_enqueue(&rq, &tasks[i].se, tasks[i].key);
	run(&rq, 120000);
	unsigned long a = ran_of(0, 1), b = ran_of(1, 10), c = ran_of(11, 100);
	assert_true(a >= 39000 && a <= 41000);
	assert_true(b >= 39000 && b <= 41000);
	assert_true(c >= 39000 && c <= 41000);
}

/* A domain that wakes up preempts the running one once that is ahead;
 * it earns no credit for the time it slept. */
static void test_wakeup(void **state)
{
	struct runqueue rq;

	rq_init(&rq, SLICE * 4);
	make_tasks(0, 2, A);
	make_tasks(2, 1, B);
	rq_enqueue(&rq, &tasks[0].se, A);
	rq_enqueue(&rq, &tasks[1].se, A);
	run(&rq, 1000);
	/* B wakes: it is behind the running A by half a slice - preempt. */
	assert_true(rq_enqueue(&rq, &tasks[2].se, B));
	/* A task of the running domain does not preempt it. */
	make_tasks(3, 1, A);
	assert_false(rq_enqueue(&rq, &tasks[3].se, A));
	/* B runs next, and does not get the 1000 units back. */
	rq_put_prev(&rq, A);
	assert_ptr_equal(rq_pick_next(&rq), &tasks[2].se);
	tasks[2].ran = 0;
	tasks[0].ran = tasks[1].ran = tasks[3].ran = 0;
	run(&rq, 1000);
	assert_true(tasks[2].ran >= 480 && tasks[2].ran <= 530);
	/* An idle CPU is always preempted. */
	struct runqueue idle;
	rq_init(&idle, SLICE);
	make_tasks(10, 1, C);
	assert_true(rq_enqueue(&idle, &tasks[10].se, C));
}

/* A task that sleeps leaves; the rest go on; its group slot is freed. */
static void test_sleep_and_dequeue(void **state)
{
	struct runqueue rq;

	rq_init(&rq, SLICE);
	make_tasks(0, 3, A);
	for (int i = 0; i < 3; i++)
		rq_enqueue(&rq, &tasks[i].se, A);
	struct rq_entity *e = rq_pick_next(&rq);
	assert_ptr_equal(e, &tasks[0].se);
	rq_put_prev(&rq, NULL);           /* task 0 sleeps */
	assert_int_equal(rq_nr_tasks(&rq), 2);
	assert_int_equal(tasks[0].se.group, -1);
	rq_dequeue(&rq, &tasks[2].se);    /* task 2 migrates away */
	assert_false(tasks[2].se.queued);
	assert_ptr_equal(rq_pick_next(&rq), &tasks[1].se);
	rq_put_prev(&rq, NULL);
	assert_int_equal(rq_nr_tasks(&rq), 0);
	assert_int_equal(rq_group_tasks(&rq, A), 0);
	for (int i = 0; i < RQ_MAX_GROUPS; i++)
		assert_null(rq.groups[i].key);
}

/* A task moved to another domain while running is queued under the new
 * one when it is put back. */
static void test_requeue_other_domain(void **state)
{
	struct runqueue rq;

	rq_init(&rq, SLICE);
	make_tasks(0, 1, A);
	rq_enqueue(&rq, &tasks[0].se, A);
	rq_pick_next(&rq);
	rq_put_prev(&rq, B);
	assert_int_equal(rq_group_tasks(&rq, A), 0);
	assert_int_equal(rq_group_tasks(&rq, B), 1);
	assert_ptr_equal(rq_key_of(&rq, &tasks[0].se), B);
}

/* More domains than groups: the extra ones share the last group, and
 * nothing is lost. */
static void test_group_overflow(void **state)
{
	static int keys[RQ_MAX_GROUPS + 8];
	struct runqueue rq;
	int n = RQ_MAX_GROUPS + 8;

	rq_init(&rq, SLICE);
	for (int i = 0; i < n; i++) {
		make_tasks(i, 1, &keys[i]);
		rq_enqueue(&rq, &tasks[i].se, &keys[i]);
	}
	assert_int_equal(rq_nr_tasks(&rq), n);
	run(&rq, n * SLICE * 10);
	for (int i = 0; i < n; i++)
		assert_true(tasks[i].ran > 0);
	while (rq.curr)
		rq_put_prev(&rq, NULL);
	while (rq_pick_next(&rq))
		rq_put_prev(&rq, NULL);
	assert_int_equal(rq_nr_tasks(&rq), 0);
}

/* --- across CPUs ------------------------------------------------------------ */

static void test_census_and_load(void **state)
{
	struct runqueue rq0, rq1;
	struct runqueue *rqs[2] = {&rq0, &rq1};
	struct rq_census census;

	rq_init(&rq0, SLICE);
	rq_init(&rq1, SLICE);
	make_tasks(0, 40, A);
	make_tasks(40, 1, B);
	for (int i = 0; i < 20; i++)
		rq_enqueue(&rq0, &tasks[i].se, A);
	for (int i = 20; i < 40; i++)
		rq_enqueue(&rq1, &tasks[i].se, A);
	rq_enqueue(&rq0, &tasks[40].se, B);
	rq_pick_next(&rq0);  /* running tasks count too */
	rq_census(&census, rqs, 2, NULL);
	assert_int_equal(rq_census_total(&census, A), 40);
	assert_int_equal(rq_census_total(&census, B), 1);
	assert_int_equal(rq_census_total(&census, C), 0);
	assert_int_equal(rq_load(&rq0, &census),
			 RQ_LOAD_SCALE + 20 * (RQ_LOAD_SCALE / 40));
	assert_int_equal(rq_load(&rq1, &census), 20 * (RQ_LOAD_SCALE / 40));
}

/* Placement: 40 tasks of A alternate; then B goes where moving A's tasks
 * away will make room - and balancing moves all of A off B's CPU. */
static void test_place_and_balance(void **state)
{
	struct runqueue rq0, rq1;
	struct runqueue *rqs[2] = {&rq0, &rq1};

	rq_init(&rq0, SLICE);
	rq_init(&rq1, SLICE);
	make_tasks(0, 40, A);
	make_tasks(40, 1, B);
	for (int i = 0; i < 40; i++) {
		unsigned int cpu = rq_pick_cpu(rqs, 2, A, NULL, -1, &scratch);

		rq_enqueue(rqs[cpu], &tasks[i].se, A);
	}
	assert_int_equal(rq_group_tasks(&rq0, A), 20);
	assert_int_equal(rq_group_tasks(&rq1, A), 20);
	unsigned int bcpu = rq_pick_cpu(rqs, 2, B, NULL, -1, &scratch);
	rq_enqueue(rqs[bcpu], &tasks[40].se, B);
	struct runqueue *heavy = rqs[bcpu], *light = rqs[!bcpu];

	/* the light CPU pulls, as the kernel's balancer does */
	for (int moves = 0; moves < 100; moves++) {
		struct rq_census census;
		uint64_t w;

		rq_census(&census, rqs, 2, NULL);
		uint64_t lh = rq_load(heavy, &census), ll = rq_load(light, &census);
		if (lh <= ll)
			break;
		struct rq_entity *e = rq_balance_pick(heavy, &census, lh - ll, &w);
		if (!e)
			break;
		void *key = rq_key_of(heavy, e);
		rq_dequeue(heavy, e);
		rq_enqueue(light, e, key);
	}
	assert_int_equal(rq_group_tasks(heavy, A), 0);
	assert_int_equal(rq_group_tasks(heavy, B), 1);
	assert_int_equal(rq_group_tasks(light, A), 40);
}

/* A fork bomb next to a lone worker: its tasks go to the other CPU. */
static void test_place_fork_bomb(void **state)
{
	struct runqueue rq0, rq1;
	struct runqueue *rqs[2] = {&rq0, &rq1};

	rq_init(&rq0, SLICE);
	rq_init(&rq1, SLICE);
	make_tasks(0, 1, A);
	make_tasks(1, 500, B);
	rq_enqueue(&rq0, &tasks[0].se, A);
	for (int i = 1; i < 501; i++)
		rq_enqueue(rqs[rq_pick_cpu(rqs, 2, B, NULL, -1, &scratch)], &tasks[i].se, B);
	assert_int_equal(rq_group_tasks(&rq0, B), 0);
	assert_int_equal(rq_group_tasks(&rq1, B), 500);
}

/* Nothing to gain, nothing moved: one task per CPU, or only the running
 * task on the heavier one. */
static void test_balance_no_gain(void **state)
{
	struct runqueue rq0, rq1;
	struct runqueue *rqs[2] = {&rq0, &rq1};
	struct rq_census census;
	uint64_t w;

	rq_init(&rq0, SLICE);
	rq_init(&rq1, SLICE);
	make_tasks(0, 1, A);
	rq_enqueue(&rq0, &tasks[0].se, A);
	rq_census(&census, rqs, 2, NULL);
	/* A single queued task weighs the whole gap: moving it helps not. */
	assert_null(rq_balance_pick(&rq0, &census, RQ_LOAD_SCALE, &w));
	make_tasks(1, 1, A);
	rq_enqueue(&rq0, &tasks[1].se, A);
	rq_census(&census, rqs, 2, NULL);
	assert_non_null(rq_balance_pick(&rq0, &census, RQ_LOAD_SCALE, &w));
	assert_int_equal(w, RQ_LOAD_SCALE / 2);
}

/* An ignored domain (the kernel's system tasks) weighs nothing: a shell
 * running on a CPU does not push workers off it. */
static void test_ignored_domain(void **state)
{
	struct runqueue rq0, rq1;
	struct runqueue *rqs[2] = {&rq0, &rq1};
	struct rq_census census;
	uint64_t w;

	rq_init(&rq0, SLICE);
	rq_init(&rq1, SLICE);
	make_tasks(0, 1, C);
	make_tasks(1, 2, A);
	rq_enqueue(&rq0, &tasks[0].se, C);
	rq_pick_next(&rq0);  /* C runs on CPU 0 */
	rq_enqueue(&rq0, &tasks[1].se, A);
	rq_enqueue(&rq1, &tasks[2].se, A);
	rq_census(&census, rqs, 2, C);
	assert_int_equal(rq_census_total(&census, C), 0);
	assert_int_equal(rq_load(&rq0, &census), RQ_LOAD_SCALE / 2);
	assert_int_equal(rq_load(&rq1, &census), RQ_LOAD_SCALE / 2);
	/* and C's own task is never the one picked to move */
	assert_null(rq_balance_pick(&rq0, &census, RQ_LOAD_SCALE, &w) ==
			    &tasks[0].se ? &tasks[0] : NULL);
	/* A third A task: either CPU will do, the ignored one included. */
	make_tasks(3, 1, A);
	unsigned int cpu = rq_pick_cpu(rqs, 2, A, C, -1, &scratch);
	assert_true(cpu == 0 || cpu == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_round_robin),
		cmocka_unit_test(test_alone_keeps_cpu),
		cmocka_unit_test(test_fair_between_domains),
		cmocka_unit_test(test_three_domains),
		cmocka_unit_test(test_wakeup),
		cmocka_unit_test(test_sleep_and_dequeue),
		cmocka_unit_test(test_requeue_other_domain),
		cmocka_unit_test(test_group_overflow),
		cmocka_unit_test(test_census_and_load),
		cmocka_unit_test(test_place_and_balance),
		cmocka_unit_test(test_place_fork_bomb),
		cmocka_unit_test(test_balance_no_gain),
		cmocka_unit_test(test_ignored_domain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
