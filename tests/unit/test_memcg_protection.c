// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_memcg_protection.c - memory.min and memory.low
 * (mm/memcg/memcg_protection.c, used by user_memory_reclaim): reclaim
 * leaves each domain its effective protection - a child of the reclaim's
 * root its own setting, a deeper one its share of its parent's when the
 * claims pass it - takes what memory.low alone protects only when
 * nothing else is left, and then counts `low` there.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mm/memcg/memcg_protection.h"
#include "mm/memcg/memcg_v2.h"
#include "tests/unit/memcg_test.h"

#define PAGES(n) ((int64_t)(n) * 4096)

static struct mem_cgroup *A, *B, *C, *D, *F;
static struct task *tc, *td, *tf;

/* cache - task takes nr cache pages (no limit: nothing refuses them). */
static void cache(struct task *task, unsigned long nr)
{
	host_set_current(task);
	assert_int_equal(user_memory_alloc(nr, USER_CACHE), 0);
	host_set_current(NULL);
}

static int64_t pages_of(struct mem_cgroup *memcg)
{
	return res_counter_usage(&memcg->res) / 4096;
}

/* A / B / {C, D, F}, each leaf with 30 cache pages; B protects 40
 * pages, C claims 60, D 20, F nothing (with min true: memory.min, else
 * memory.low). */
static void build(bool min)
{
	A = test_mkdir("/cgroup/A");
	test_write("/cgroup/A/memory.use_hierarchy", "1", 0);
	B = test_mkdir("/cgroup/A/B");
	C = test_mkdir("/cgroup/A/B/C");
	D = test_mkdir("/cgroup/A/B/D");
	F = test_mkdir("/cgroup/A/B/F");
	tc = test_task(C);
	td = test_task(D);
	tf = test_task(F);
	cache(tc, 30);
	cache(td, 30);
	cache(tf, 30);
	drain_all_stock(NULL);  /* usage is the pages alone */
	/* From now on events are counted (v2); set before the pages, it
	 * would have these domains, made through /cgroup without v2's
	 * defaults, throttled by a memory.high of 0. */
	cgroup_v2 = true;
	memcg_protection_set(B, min, PAGES(40));
	memcg_protection_set(C, min, PAGES(60));
	memcg_protection_set(D, min, PAGES(20));
}

static int teardown(void **state)
{
	cgroup_v2 = false;
	for (int min = 0; min < 2; min++) {
		memcg_protection_set(B, min, 0);
		memcg_protection_set(C, min, 0);
		memcg_protection_set(D, min, 0);
	}
	test_task_exit(tc);
	test_task_exit(td);
	test_task_exit(tf);
	drain_all_stock(NULL);
	test_rmdir("/cgroup/A/B/C", 0);
	test_rmdir("/cgroup/A/B/D", 0);
	test_rmdir("/cgroup/A/B/F", 0);
	test_rmdir("/cgroup/A/B", 0);
	test_rmdir("/cgroup/A", 0);
	return memcg_test_teardown(state);
}

/* Reclaim for A: B keeps 40; C and D claim 30 and 20, more than 40
 * together, so they share it 24 and 16; F keeps nothing. */
static void test_min_shared(void **state)
{
	build(true);
	assert_int_equal(user_memory_reclaim(A, 1000), 6 + 14 + 30);
	assert_int_equal(pages_of(C), 24);
	assert_int_equal(pages_of(D), 16);
	assert_int_equal(pages_of(F), 0);
	assert_int_equal(pages_of(B), 40);
	/* memory.min is never taken, and counts no event. */
	assert_int_equal(user_memory_reclaim(A, 1000), 0);
	assert_int_equal(C->v2.events[MEMCG_LOW], 0);
}

/* Reclaim for B: its children are protected by their own settings, C
 * wholly (30 <= 60), D down to 20. */
static void test_min_own_setting(void **state)
{
	build(true);
	assert_int_equal(user_memory_reclaim(B, 1000), 10 + 30);
	assert_int_equal(pages_of(C), 30);
	assert_int_equal(pages_of(D), 20);
}

/* memory.low: the same shares hold while something else can be taken;
 * past that, the protected pages go too, and low is counted in each
 * domain at or below its protection (C, D and B, and up from each), not
 * in F, which had none. */
static void test_low_breached(void **state)
{
	build(false);
	assert_int_equal(user_memory_reclaim(A, 50), 50);
	assert_int_equal(pages_of(C), 24);
	assert_int_equal(pages_of(D), 16);
	assert_int_equal(C->v2.events[MEMCG_LOW], 0);
	assert_int_equal(user_memory_reclaim(A, 10), 10);
	assert_int_equal(pages_of(C) + pages_of(D), 30);
	assert_int_equal(C->v2.events[MEMCG_LOW], 1);
	assert_int_equal(D->v2.events[MEMCG_LOW], 1);
	assert_int_equal(F->v2.events[MEMCG_LOW], 0);
	/* B, at its own memory.low too, counts its breach and theirs. */
	assert_int_equal(B->v2.events[MEMCG_LOW], 3);
	assert_int_equal(B->v2.events_local[MEMCG_LOW], 1);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_min_shared),
		T(test_min_own_setting),
		T(test_low_breached),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
