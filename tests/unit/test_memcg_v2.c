// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_memcg_v2.c - cgroup v2's OOM killer and memory.events
 * (mm/memcg/memcg_v2.c): the victim is the task
 * with the most charged pages, moved by oom_score_adj, -1000 never; a
 * group kill takes the whole cgroup and counts as Linux does; a second
 * OOM waits for a victim still on its way out; events are counted in the
 * cgroup and every ancestor, .local in the cgroup alone.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mm/memcg/memcg_v2.h"
#include "tests/unit/memcg_test.h"

static struct mem_cgroup *A, *B;
static struct task *t1, *t2, *t3;

static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	/* v2 is one hierarchy: B's counter is A's too. */
	test_write("/cgroup/A/memory.use_hierarchy", "1", 0);
	B = test_mkdir("/cgroup/A/B");
	t1 = test_task(A);
	t2 = test_task(A);
	t3 = test_task(B);
	/* Made through /cgroup; from now on, events are counted (v2). */
	cgroup_v2 = true;
	return 0;
}

static int teardown(void **state)
{
	cgroup_v2 = false;
	test_task_exit(t1);
	test_task_exit(t2);
	test_task_exit(t3);
	drain_all_stock(NULL);
	test_rmdir("/cgroup/A/B", 0);
	test_rmdir("/cgroup/A", 0);
	return memcg_test_teardown(state);
}

/* give - task takes nr rss pages (no limit: nothing refuses them). */
static void give(struct task *task, unsigned long nr)
{
	host_set_current(task);
	assert_int_equal(user_memory_alloc(nr, USER_RSS), 0);
	host_set_current(NULL);
}

/* The task holding the most pages dies; the kill is counted in its own
 * cgroup and up, the OOM in the cgroup asked. */
static void test_oom_kills_most_charged(void **state)
{
	give(t3, 10);
	give(t1, 2);
	assert_int_equal(memcg_v2_oom(A), MEMCG_V2_OOM_KILLED);
	assert_true(host_task_killed(t3));
	assert_false(host_task_killed(t1));
	assert_false(host_task_killed(t2));
	assert_int_equal(host_tasks_killed, 1);
	assert_int_equal(A->v2.events[MEMCG_OOM], 1);
	assert_int_equal(A->v2.events_local[MEMCG_OOM], 1);
	assert_int_equal(B->v2.events[MEMCG_OOM], 0);
	assert_int_equal(B->v2.events_local[MEMCG_OOM_KILL], 1);
	assert_int_equal(A->v2.events[MEMCG_OOM_KILL], 1);
	assert_int_equal(A->v2.events_local[MEMCG_OOM_KILL], 0);
	assert_int_equal(A->v2.events[MEMCG_OOM_GROUP_KILL], 0);
}

/* A victim on its way out: the next OOM kills nobody else, it waits. */
static void test_second_oom_waits(void **state)
{
	assert_int_equal(memcg_v2_oom(A), MEMCG_V2_OOM_KILLED);
	assert_int_equal(memcg_v2_oom(A), MEMCG_V2_OOM_WAIT);
	assert_int_equal(host_tasks_killed, 1);
	assert_int_equal(A->v2.events[MEMCG_OOM], 2);
	assert_int_equal(A->v2.events[MEMCG_OOM_KILL], 1);
}

/* oom_score_adj: thousandths of the limit added to the pages; -1000
 * makes a task immune, and with all immune nobody is killed. */
static void test_oom_score_adj(void **state)
{
	give(t1, 10);
	t2->oom_score_adj = 500;   /* half the limit: far above 10 pages */
	assert_int_equal(memcg_v2_oom(A), MEMCG_V2_OOM_KILLED);
	assert_true(host_task_killed(t2));
	assert_false(host_task_killed(t1));
	host_task_clear_killed(t2);

	t1->oom_score_adj = OOM_SCORE_ADJ_MIN;
	t2->oom_score_adj = OOM_SCORE_ADJ_MIN;
	t3->oom_score_adj = OOM_SCORE_ADJ_MIN;
	assert_int_equal(memcg_v2_oom(A), MEMCG_V2_OOM_NOBODY);
	assert_int_equal(memcg_v2_oom(B), MEMCG_V2_OOM_NOBODY);
	assert_int_equal(host_tasks_killed, 1);
}

/* memory.oom.group on A does not widen an OOM of B. */
static void test_oom_group_bounded(void **state)
{
	A->v2.oom_group = true;
	t2->oom_score_adj = OOM_SCORE_ADJ_MIN;
	give(t3, 10);
	assert_int_equal(memcg_v2_oom(B), MEMCG_V2_OOM_KILLED);
	/* The group is looked for from the victim's cgroup up to the
	 * OOM's only: B has no oom.group, and A, above B, is not asked. */
	assert_true(host_task_killed(t3));
	assert_false(host_task_killed(t1));
	assert_int_equal(A->v2.events[MEMCG_OOM_GROUP_KILL], 0);

	/* t3 is still on its way out: A's own OOM waits for it. */
	assert_int_equal(memcg_v2_oom(A), MEMCG_V2_OOM_WAIT);
	assert_int_equal(B->v2.events_local[MEMCG_OOM_KILL], 1);
}

/* memory.oom.group on A: the victim, then every task of A's subtree but
 * the immune; oom_kill counts N+1 for a group of N, oom_group_kill 1. */
static void test_oom_group_whole(void **state)
{
	A->v2.oom_group = true;
	t2->oom_score_adj = OOM_SCORE_ADJ_MIN;
	give(t3, 10);
	assert_int_equal(memcg_v2_oom(A), MEMCG_V2_OOM_KILLED);
	assert_true(host_task_killed(t1));
	assert_true(host_task_killed(t3));
	assert_false(host_task_killed(t2));
	/* t3, the victim, then t1 and t3 again as the group. */
	assert_int_equal(A->v2.events[MEMCG_OOM_KILL], 3);
	assert_int_equal(A->v2.events_local[MEMCG_OOM_KILL], 1);
	assert_int_equal(B->v2.events_local[MEMCG_OOM_KILL], 2);
	assert_int_equal(A->v2.events[MEMCG_OOM_GROUP_KILL], 1);
	assert_int_equal(B->v2.events[MEMCG_OOM_GROUP_KILL], 0);
}

/* memory.events counts up to the top cgroup, never in the root; in v1
 * nothing is counted. */
static void test_events_hierarchical(void **state)
{
	memcg_v2_event(B, MEMCG_MAX, 2);
	memcg_v2_event(A, MEMCG_HIGH, 1);
	memcg_v2_event(root_mem_cgroup, MEMCG_MAX, 1);
	assert_int_equal(B->v2.events[MEMCG_MAX], 2);
	assert_int_equal(B->v2.events_local[MEMCG_MAX], 2);
	assert_int_equal(A->v2.events[MEMCG_MAX], 2);
	assert_int_equal(A->v2.events_local[MEMCG_MAX], 0);
	assert_int_equal(A->v2.events[MEMCG_HIGH], 1);
	assert_int_equal(B->v2.events[MEMCG_HIGH], 0);
	assert_int_equal(root_mem_cgroup->v2.events[MEMCG_MAX], 0);
	cgroup_v2 = false;
	memcg_v2_event(B, MEMCG_MAX, 1);
	assert_int_equal(B->v2.events[MEMCG_MAX], 2);
}

/* memory.max below the usage: the limit is set at once, and tasks are
 * killed until what they hold covers the excess (never refused). */
static void test_set_max_below_usage_kills(void **state)
{
	give(t1, 40);
	give(t3, 40);
	drain_all_stock(NULL);
	memcg_v2_set_max(A, 60 * 4096);
	assert_int_equal(A->res.limit, 60 * 4096);
	assert_int_equal(host_tasks_killed, 1);
	assert_true(host_task_killed(t1) || host_task_killed(t3));
	memcg_v2_set_max(A, RES_COUNTER_MAX);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_oom_kills_most_charged),
		T(test_second_oom_waits),
		T(test_oom_score_adj),
		T(test_oom_group_bounded),
		T(test_oom_group_whole),
		T(test_events_hierarchical),
		T(test_set_max_below_usage_kills),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
