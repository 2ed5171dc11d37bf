// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_fail_page.c - fault injection (mm/fail_page.c) and the
 * system tasks' reserve (mm/watermark.c): every Nth allocation fails,
 * never a __GFP_NOFAIL one; a page refused after its charge gives the
 * charge back; the values /proc/fail_page_alloc takes; below the reserve
 * a user task's allocation fails and a system task's does not.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mm/fail_page.h"
#include "mm/watermark.h"
#include "tests/unit/memcg_test.h"

static struct mem_cgroup *A;
static struct task *ta;

static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	ta = test_task(A);
	return 0;
}

static int teardown(void **state)
{
	fail_page_set(0);
	min_free_pages = 0;
	host_set_current(NULL);
	drain_all_stock(NULL);
	assert_check_ok();
	test_task_exit(ta);
	test_rmdir("/cgroup/A", 0);
	return memcg_test_teardown(state);
}

/* Every 3rd allocation fails, counted; 0 turns it off. */
static void test_every_nth(void **state)
{
	struct page *pages[9];
	unsigned long injected = fail_page_injected();

	fail_page_set(3);
	for (int i = 0; i < 9; i++)
		pages[i] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);
	for (int i = 0; i < 9; i++) {
		if ((i + 1) % 3 == 0)
			assert_null(pages[i]);
		else
			assert_non_null(pages[i]);
	}
	assert_int_equal(fail_page_injected() - injected, 3);
	fail_page_set(0);
	for (int i = 0; i < 9; i++)
		if (pages[i])
			free_pages(pages[i], 0);
	pages[0] = alloc_pages(GFP_KERNEL, 0);
	assert_non_null(pages[0]);
	free_pages(pages[0], 0);
	assert_int_equal(fail_page_injected() - injected, 3);
}

/* Every allocation fails, but not __GFP_NOFAIL ones. */
static void test_nofail_never_failed(void **state)
{
	struct page *page;

	fail_page_set(1);
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN, 2));
	page = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 2);
	assert_non_null(page);
	free_pages(page, 2);
}

/* A refused page comes after the charge (alloc_pages step 2): step 3
 * gives it back, with no stock left holding it either. */
static void test_failed_page_uncharged(void **state)
{
	struct page *page;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	host_set_current(ta);
	memcg_stock_set_enabled(false);
	fail_page_set(1);
	for (int order = 0; order <= 3; order++)
		assert_null(alloc_pages(GFP_ACCOUNT | __GFP_NOWARN, order));
	assert_int_equal(usage(&A->kmem), 0);
	assert_int_equal(usage(&A->res), 0);
	assert_check_ok();
	fail_page_set(0);
	page = alloc_pages(GFP_ACCOUNT, 2);
	assert_non_null(page);
	assert_int_equal(usage(&A->kmem), 16384);
	free_accounted_pages(page, 2);
	assert_int_equal(usage(&A->kmem), 0);
	host_set_current(NULL);
	memcg_stock_set_enabled(true);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "-1", 0);
}

/* What /proc/fail_page_alloc accepts; a refused write changes nothing. */
static void test_parse(void **state)
{
	static const char *const bad[] = {
		"", "-1", "x", "1x", " 1", "1 ", "1.0", "0x10", "+5",
		"1000000001", "99999999999", "18446744073709551617",
	};
	unsigned long n = 77;

	assert_int_equal(fail_page_parse("0", &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(fail_page_parse("50", &n), 0);
	assert_int_equal(n, 50);
	assert_int_equal(fail_page_parse("1000000000", &n), 0);
	assert_int_equal(n, 1000000000);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		n = 77;
		assert_int_equal(fail_page_parse(bad[i], &n), -EINVAL);
		assert_int_equal(n, 77);
	}
}

/* Below the reserve: a user task's allocation fails, a system task's,
 * an interrupt's and a __GFP_NOFAIL one do not. */
static void test_reserve(void **state)
{
	struct task sys = {0};
	struct page *page;

	sys.flags = TASK_SYSTEM;
	min_free_pages = nr_free_pages();  /* everything is the reserve */
	host_set_current(ta);
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0));
	assert_null(alloc_pages(GFP_ACCOUNT | __GFP_NOWARN, 2));
	assert_int_equal(usage(&A->kmem), 0);
	page = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 0);
	assert_non_null(page);
	free_pages(page, 0);
	host_in_interrupt = true;
	page = alloc_pages(GFP_ATOMIC, 0);
	host_in_interrupt = false;
	assert_non_null(page);
	free_pages(page, 0);
	host_set_current(&sys);
	page = alloc_pages(GFP_KERNEL, 0);
	assert_non_null(page);
	free_pages(page, 0);
	/* Above it again: the user task gets its page. */
	min_free_pages = 16;
	host_set_current(ta);
	page = alloc_pages(GFP_KERNEL, 0);
	assert_non_null(page);
	free_pages(page, 0);
	host_set_current(NULL);
}

/* The reserve's size: 1/256 of memory, between 128 and 2048 pages. */
static void test_reserve_size(void **state)
{
	unsigned long saved = totalram_pages;

	totalram_pages = 1000;
	watermark_init();
	assert_int_equal(min_free_pages, 128);
	totalram_pages = 256 * 1000;
	watermark_init();
	assert_int_equal(min_free_pages, 1000);
	totalram_pages = 1ul << 30;
	watermark_init();
	assert_int_equal(min_free_pages, 2048);
	totalram_pages = saved;
	min_free_pages = 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_every_nth),
		T(test_nofail_never_failed),
		T(test_failed_page_uncharged),
		T(test_parse),
		T(test_reserve),
		T(test_reserve_size),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
