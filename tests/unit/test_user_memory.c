// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_user_memory.c - user memory (docs/design.md): rss and cache
 * pages charged to res, freed at exit, cache reclaimed before anything is
 * killed, then the domain OOM killer - or, with oom_kill_disable, a wait.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mm/memcg/memcg_oom.h"
#include "tests/unit/memcg_test.h"

static struct mem_cgroup *A, *B;
static struct task *t1, *t2;

static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	B = test_mkdir("/cgroup/B");
	t1 = test_task(A);
	t2 = test_task(A);
	host_set_current(t2);
	return 0;
}

static int teardown(void **state)
{
	host_set_current(NULL);
	assert_check_ok();
	test_task_exit(t1);
	test_task_exit(t2);
	drain_all_stock(NULL);
	assert_int_equal(usage(&A->res), 0);
	test_rmdir("/cgroup/A", 0);
	test_rmdir("/cgroup/B", 0);
	return memcg_test_teardown(state);
}

/* as - the current task is t. */
static void as(struct task *t)
{
	host_set_current(t);
}

static void test_alloc_and_exit(void **state)
{
	unsigned long free_before = nr_free_pages();
	struct page *page;

	assert_int_equal(user_memory_alloc(5, USER_RSS), 0);
	assert_int_equal(user_memory_alloc(3, USER_CACHE), 0);
	assert_int_equal(A->nr_rss, 5);
	assert_int_equal(A->nr_cache, 3);
	assert_int_equal(user_memory_task_pages(t2), 8);
	assert_int_equal(usage(&A->res), CHARGE_BATCH * 4096);
	assert_int_equal(usage(&A->kmem), 0);
	page = list_first_entry(&t2->user_rss, struct page, lru);
	assert_true(page->flags & PG_user);
	assert_ptr_equal(page->memcg, A);
	assert_check_ok();

	mem_cgroup_exit_task(t2);
	assert_int_equal(A->nr_rss + A->nr_cache, 0);
	assert_int_equal(usage(&A->res), (CHARGE_BATCH - 8) * 4096);
	assert_int_equal(nr_free_pages(), free_before);
	assert_check_ok();
	host_set_current(NULL);
	host_task_unregister(t2);
	free(t2);
	t2 = test_task(A);
}

/* Cache pages make room for rss before anyone is killed. */
static void test_reclaim_before_oom(void **state)
{
	test_write("/cgroup/A/memory.limit_in_bytes", "40K", 0); /* 10 pages */
	assert_int_equal(user_memory_alloc(6, USER_CACHE), 0);
	assert_int_equal(user_memory_alloc(8, USER_RSS), 0);
	/* Reclaim drops a batch (32) at a time: all 6 went. */
	assert_int_equal(A->nr_rss, 8);
	assert_int_equal(A->nr_cache, 0);
	assert_int_equal(host_tasks_killed, 0);
	assert_true(usage(&A->res) <= 40960);
	assert_check_ok();
}

static void exit_killed(void)
{
	/* The kill takes effect: the victim exits and frees its memory. */
	if (host_task_killed(t1) && user_memory_task_pages(t1))
		user_memory_task_exit(t1);
}

/* Out of memory: the task with the most user memory dies, and the one
 * that asked gets the memory. */
static void test_oom_kills_biggest(void **state)
{
	test_write("/cgroup/A/memory.limit_in_bytes", "40K", 0);
	as(t1);
	assert_int_equal(user_memory_alloc(6, USER_RSS), 0);
	as(t2);
	assert_int_equal(user_memory_alloc(2, USER_RSS), 0);
	host_oom_wait_hook = exit_killed;
	assert_int_equal(user_memory_alloc(6, USER_RSS), 0);
	assert_true(host_task_killed(t1));
	assert_false(host_task_killed(t2));
	assert_int_equal(user_memory_task_pages(t2), 8);
	assert_int_equal(host_tasks_killed, 1);
	assert_check_ok();
}

/* The task asking is the biggest: it is killed, and its charge fails. */
static void test_oom_kills_current(void **state)
{
	test_write("/cgroup/A/memory.limit_in_bytes", "40K", 0);
	assert_int_equal(user_memory_alloc(12, USER_RSS), -ENOMEM);
	assert_true(host_task_killed(t2));
	assert_int_equal(user_memory_task_pages(t2), 10);
	assert_true(test_read_u64("/cgroup/A/memory.failcnt") > 0);
	/* Killed: it asks for nothing more. */
	assert_int_equal(user_memory_alloc(1, USER_RSS), -ENOMEM);
	assert_check_ok();
}

/*
 * Under a limit of 0 nobody holds user memory, and still a task
 * is killed - every task scores its user pages plus one. Tied, the
 * youngest (latest birth) goes: here the task asking, whose charge fails.
 */
static void test_oom_kills_task_without_memory(void **state)
{
	char buf[128], why[CTL_WHY_MAX];

	t1->birth = 1;
	t2->birth = 2;
	test_write("/cgroup/A/memory.limit_in_bytes", "0", 0);
	assert_int_equal(user_memory_alloc(1, USER_RSS), -ENOMEM);
	assert_true(host_task_killed(t2));
	assert_false(host_task_killed(t1));
	assert_int_equal(host_tasks_killed, 1);
	assert_true(ctl_read("/cgroup/A/memory.oom_control", buf, sizeof(buf),
			     why) > 0);
	assert_string_equal(buf, "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
	assert_check_ok();
}

static void raise_limit_once_killed(void)
{
	if (host_task_killed(t1))
		test_write("/cgroup/A/memory.limit_in_bytes", "40K", 0);
}

/* The tie-break the other way: the other task is younger, so it is the
 * one killed; the task asking waits, and gets its page when the limit
 * rises. */
static void test_oom_tie_kills_youngest(void **state)
{
	t1->birth = 5;
	t2->birth = 2;
	test_write("/cgroup/A/memory.limit_in_bytes", "0", 0);
	host_oom_wait_hook = raise_limit_once_killed;
	assert_int_equal(user_memory_alloc(1, USER_RSS), 0);
	assert_true(host_task_killed(t1));
	assert_false(host_task_killed(t2));
	assert_int_equal(user_memory_task_pages(t2), 1);
	assert_int_equal(A->oom_kill, 1);
	assert_check_ok();
}

static int waits_seen;

static void raise_limit(void)
{
	char buf[128], why[CTL_WHY_MAX];

	assert_true(ctl_read("/cgroup/A/memory.oom_control", buf, sizeof(buf),
			     why) > 0);
	assert_string_equal(buf, "oom_kill_disable 1\nunder_oom 1\noom_kill 0\n");
	if (++waits_seen == 3)
		test_write("/cgroup/A/memory.limit_in_bytes", "80K", 0);
}

/* oom_kill_disable: the task waits, under_oom 1, until the limit rises. */
static void test_oom_kill_disable_waits(void **state)
{
	char buf[128], why[CTL_WHY_MAX];

	test_write("/cgroup/A/memory.limit_in_bytes", "40K", 0);
	test_write("/cgroup/A/memory.oom_control", "1", 0);
	host_oom_wait_hook = raise_limit;
	waits_seen = 0;
	assert_int_equal(user_memory_alloc(12, USER_RSS), 0);
	assert_int_equal(waits_seen, 3);
	assert_int_equal(host_tasks_killed, 0);
	assert_false(mem_cgroup_under_oom(A));
	assert_true(ctl_read("/cgroup/A/memory.oom_control", buf, sizeof(buf),
			     why) > 0);
	assert_string_equal(buf, "oom_kill_disable 1\nunder_oom 0\noom_kill 0\n");
	test_write("/cgroup/A/memory.oom_control", "0", 0);
}

/* A task that moves leaves its charges behind. */
static void test_move_keeps_charges(void **state)
{
	assert_int_equal(user_memory_alloc(3, USER_RSS), 0);
	assert_int_equal(mem_cgroup_move_task(t2, B), 0);
	assert_int_equal(user_memory_alloc(2, USER_RSS), 0);
	assert_int_equal(A->nr_rss, 3);
	assert_int_equal(B->nr_rss, 2);
	assert_check_ok();
	mem_cgroup_exit_task(t2);
	assert_int_equal(A->nr_rss + B->nr_rss, 0);
	drain_all_stock(NULL);
	assert_int_equal(usage(&B->res), 0);
	host_set_current(NULL);
	host_task_unregister(t2);
	free(t2);
	t2 = test_task(A);
}

/* A user limit below the usage reclaims cache; rss stays: EBUSY. */
static void test_limit_below_usage(void **state)
{
	assert_int_equal(user_memory_alloc(6, USER_CACHE), 0);
	assert_int_equal(user_memory_alloc(2, USER_RSS), 0);
	/* 32 pages charged (8 used, 24 stocked): the stock is drained,
	 * then just the 4 pages over the limit are reclaimed. */
	test_write("/cgroup/A/memory.limit_in_bytes", "16K", 0);
	assert_int_equal(A->nr_cache, 2);
	assert_int_equal(test_read_u64("/cgroup/A/memory.limit_in_bytes"),
			 16384);
	test_write("/cgroup/A/memory.limit_in_bytes", "4K", -EBUSY);
	assert_int_equal(test_read_u64("/cgroup/A/memory.limit_in_bytes"),
			 16384);
	assert_check_ok();
}

/* Tasks of the root and system tasks are charged to nobody. */
static void test_root_not_charged(void **state)
{
	struct task *r = test_task(NULL);

	as(r);
	assert_int_equal(user_memory_alloc(4, USER_RSS), 0);
	assert_int_equal(root_mem_cgroup->nr_rss, 4);
	assert_int_equal(usage(&root_mem_cgroup->res), 0);
	assert_check_ok();
	test_task_exit(r);
	assert_int_equal(root_mem_cgroup->nr_rss, 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_alloc_and_exit),
		T(test_reclaim_before_oom),
		T(test_oom_kills_biggest),
		T(test_oom_kills_current),
		T(test_oom_kill_disable_waits),
		T(test_oom_kills_task_without_memory),
		T(test_oom_tie_kills_youngest),
		T(test_move_keeps_charges),
		T(test_limit_below_usage),
		T(test_root_not_charged),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
