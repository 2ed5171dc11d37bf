// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_charge.c - charging kernel allocations: alloc_pages()
 * with __GFP_KMEMCG through the hooks to the res and kmem counters, the
 * stock on the way, the three configurations (docs/design.md), what is never
 * charged, and the handle that survives a task move.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/memcg_test.h"

#define K 1024
#define ORDER_STACK 2
#define STACK_BYTES (4096 << ORDER_STACK)

static struct mem_cgroup *A, *B;
static struct task *ta, *tb;

/* Two domains, each with a task; the current task is ta. */
static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	B = test_mkdir("/cgroup/B");
	ta = test_task(A);
	tb = test_task(B);
	host_set_current(ta);
	return 0;
}

static int teardown(void **state)
{
	host_set_current(NULL);
	drain_all_stock(NULL);
	assert_check_ok();
	test_task_exit(ta);
	test_task_exit(tb);
	test_rmdir("/cgroup/A", 0);
	test_rmdir("/cgroup/B", 0);
	return memcg_test_teardown(state);
}

static unsigned int stock_of(struct mem_cgroup *memcg)
{
	return memcg_stock_pages(memcg);
}

/* Configuration 1: no kmem limit anywhere: kernel memory is not charged,
 * even when the hooks are on for another domain. */
static void test_config1_not_accounted(void **state)
{
	struct page *page;

	test_write("/cgroup/A/memory.limit_in_bytes", "1M", 0);
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_non_null(page);
	assert_false(page->flags & PG_kmemcg);
	assert_int_equal(usage(&A->res), 0);
	free_accounted_pages(page, 0);

	test_write("/cgroup/B/memory.kmem.limit_in_bytes", "1M", 0);
	assert_int_equal(memcg_kmem_enabled_key.enabled, 1);
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_false(page->flags & PG_kmemcg);
	assert_int_equal(usage(&A->kmem), 0);
	free_accounted_pages(page, 0);
	assert_check_ok();
}

/* A page, then a stack: the first charge fills the stock with a batch of
 * both counters, the stack is served from it, and the freed pages give
 * their charge back to it (the invariant: kmem usage = pages owned + kmem
 * stocked). */
static void test_charge_and_stock(void **state)
{
	struct page *p0, *p2;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	p0 = alloc_pages(GFP_ACCOUNT, 0);
	assert_non_null(p0);
	assert_true(p0->flags & PG_kmemcg);
	assert_ptr_equal(p0->memcg, A);
	assert_int_equal(usage(&A->kmem), CHARGE_BATCH * 4096);
	assert_int_equal(usage(&A->res), CHARGE_BATCH * 4096);
	assert_int_equal(stock_of(A), CHARGE_BATCH - 1);
	assert_int_equal(memcg_stock_kmem_pages(A), CHARGE_BATCH - 1);
	assert_check_ok();

	p2 = alloc_pages(THREADINFO_GFP_ACCOUNTED, ORDER_STACK);
	assert_non_null(p2);
	assert_ptr_equal(p2->memcg, A);
	assert_int_equal(usage(&A->kmem), CHARGE_BATCH * 4096); /* stock hit */
	assert_int_equal(usage(&A->res), CHARGE_BATCH * 4096);
	assert_int_equal(stock_of(A), CHARGE_BATCH - 5);
	assert_check_ok();

	free_accounted_pages(p0, 0);
	free_accounted_pages(p2, ORDER_STACK);
	assert_false(p0->flags & PG_kmemcg);
	assert_null(p0->memcg);
	assert_int_equal(stock_of(A), CHARGE_BATCH);   /* back in the stock */
	assert_int_equal(usage(&A->kmem), CHARGE_BATCH * 4096);
	assert_check_ok();
	/* A usage read gives the stock back first: it shows pages. */
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.usage_in_bytes"),
			 0);
	assert_int_equal(usage(&A->res), 0);
	assert_int_equal(stock_of(A), 0);
}

/* Another domain on the same CPU: its batch drains A's stock first, and a
 * page of A freed there goes to the counters, not to B's stock. */
static void test_stock_other_domain(void **state)
{
	struct page *pa, *pb;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	test_write("/cgroup/B/memory.kmem.limit_in_bytes", "1M", 0);
	pa = alloc_pages(GFP_ACCOUNT, 0);
	host_set_current(tb);
	pb = alloc_pages(GFP_ACCOUNT, 0);
	assert_int_equal(usage(&A->res), 4096);
	assert_int_equal(usage(&A->kmem), 4096);
	assert_int_equal(stock_of(A), 0);
	assert_int_equal(stock_of(B), CHARGE_BATCH - 1);
	assert_check_ok();
	free_accounted_pages(pa, 0);
	assert_int_equal(usage(&A->kmem), 0);
	assert_int_equal(usage(&A->res), 0);
	free_accounted_pages(pb, 0);
	assert_int_equal(stock_of(B), CHARGE_BATCH);
}

/* Freed pages fill the stock up to STOCK_KMEM_HIGH; past it, they go to
 * the counters. */
static void test_stock_high(void **state)
{
	struct page *pages[3 * CHARGE_BATCH];

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	for (unsigned int i = 0; i < 3 * CHARGE_BATCH; i++)
		pages[i] = alloc_pages(GFP_ACCOUNT, 0);
	assert_int_equal(usage(&A->kmem), 3 * CHARGE_BATCH * 4096);
	assert_int_equal(stock_of(A), 0);
	for (unsigned int i = 0; i < STOCK_KMEM_HIGH; i++)
		free_accounted_pages(pages[i], 0);
	assert_int_equal(stock_of(A), STOCK_KMEM_HIGH);
	free_accounted_pages(pages[STOCK_KMEM_HIGH], 0);
	assert_int_equal(stock_of(A), STOCK_KMEM_HIGH);
	assert_int_equal(usage(&A->kmem), (3 * CHARGE_BATCH - 1) * 4096);
	assert_check_ok();
	for (unsigned int i = STOCK_KMEM_HIGH + 1; i < 3 * CHARGE_BATCH; i++)
		free_accounted_pages(pages[i], 0);
}

/* Configuration 2: kmem 256K, no user limit: 16 stacks, and the 17th is
 * refused by kmem (the demonstration's fork bomb). */
static void test_config2_kmem_limit(void **state)
{
	struct page *stacks[17];

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "256K", 0);
	for (int i = 0; i < 16; i++) {
		stacks[i] = alloc_pages(THREADINFO_GFP_ACCOUNTED, ORDER_STACK);
		assert_non_null(stacks[i]);
	}
	stacks[16] = alloc_pages(THREADINFO_GFP_ACCOUNTED | __GFP_NOWARN,
				 ORDER_STACK);
	assert_null(stacks[16]);
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.usage_in_bytes"),
			 262144);
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.failcnt"), 1);
	assert_int_equal(test_read_u64("/cgroup/A/memory.failcnt"), 0);
	assert_true(usage(&A->res) >= 262144);
	assert_check_ok();
	for (int i = 0; i < 16; i++)
		free_accounted_pages(stacks[i], ORDER_STACK);
	drain_all_stock(A);
	assert_int_equal(usage(&A->kmem), 0);
}

/* Configuration 3: kmem 64M, user 200K: the user (res) counter refuses
 * first, and uses the limit to the last page although the batch of the
 * stock does not fit. */
static void test_config3_user_limit(void **state)
{
	struct page *stacks[13];

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "64M", 0);
	test_write("/cgroup/A/memory.limit_in_bytes", "200K", 0);
	for (int i = 0; i < 12; i++) {
		stacks[i] = alloc_pages(THREADINFO_GFP_ACCOUNTED, ORDER_STACK);
		assert_non_null(stacks[i]);
		assert_true(usage(&A->res) <= 200 * K);
	}
	stacks[12] = alloc_pages(THREADINFO_GFP_ACCOUNTED | __GFP_NOWARN,
				 ORDER_STACK);
	assert_null(stacks[12]);
	assert_true(test_read_u64("/cgroup/A/memory.failcnt") >= 1);
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.failcnt"), 0);
	assert_int_equal(usage(&A->kmem), 12 * STACK_BYTES);
	assert_check_ok();
	for (int i = 0; i < 12; i++)
		free_accounted_pages(stacks[i], ORDER_STACK);
}

/* kmem refuses: res is given back, only the stock remains. */
static void test_kmem_refusal_uncharges_res(void **state)
{
	struct page *page;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "8K", 0);
	page = alloc_pages(GFP_ACCOUNT | __GFP_NOWARN, ORDER_STACK);
	assert_null(page);
	assert_int_equal(usage(&A->kmem), 0);
	assert_int_equal(usage(&A->res), stock_of(A) * 4096);
	assert_check_ok();
}

/* What is never charged: NOFAIL, interrupts, system tasks, no task, the
 * root, allocations without __GFP_KMEMCG. */
static void test_not_charged(void **state)
{
	struct task *sys = test_task(NULL), *rootling = test_task(NULL);
	struct page *page;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	sys->flags |= TASK_SYSTEM;

	page = alloc_pages(GFP_ACCOUNT | __GFP_NOFAIL, 0);
	assert_false(page->flags & PG_kmemcg);
	free_accounted_pages(page, 0);

	host_in_interrupt = true;
	page = alloc_pages(GFP_ACCOUNT | GFP_ATOMIC, 0);
	assert_false(page->flags & PG_kmemcg);
	free_accounted_pages(page, 0);
	host_in_interrupt = false;

	page = alloc_pages(GFP_KERNEL, 0);
	assert_false(page->flags & PG_kmemcg);
	free_pages(page, 0);

	host_set_current(sys);
	assert_int_equal(mem_cgroup_move_task(sys, A), -EINVAL);
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_false(page->flags & PG_kmemcg);
	free_accounted_pages(page, 0);

	host_set_current(NULL);
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_false(page->flags & PG_kmemcg);
	free_accounted_pages(page, 0);

	host_set_current(rootling);
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_false(page->flags & PG_kmemcg);
	free_accounted_pages(page, 0);

	assert_int_equal(usage(&A->res), 0);
	assert_int_equal(usage(&A->kmem), 0);
	assert_int_equal(usage(&root_mem_cgroup->res), 0);
	host_set_current(ta);
	sys->flags &= ~TASK_SYSTEM;
	test_task_exit(sys);
	test_task_exit(rootling);
}

/* The task moves between new_page and commit_page: the page belongs to
 * the domain that was charged. */
static void test_handle_survives_move(void **state)
{
	struct mem_cgroup *handle;
	struct page *page;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	test_write("/cgroup/B/memory.kmem.limit_in_bytes", "1M", 0);
	assert_true(memcg_kmem_new_page(GFP_ACCOUNT, &handle, ORDER_STACK));
	assert_ptr_equal(handle, A);
	assert_int_equal(mem_cgroup_move_task(ta, B), 0);
	assert_ptr_equal(ta->memcg, B);
	page = alloc_pages(GFP_KERNEL, ORDER_STACK);  /* "take the pages" */
	memcg_kmem_commit_page(page, handle, ORDER_STACK);
	assert_ptr_equal(page->memcg, A);
	assert_int_equal(usage(&A->kmem),
			 STACK_BYTES + memcg_stock_kmem_pages(A) * 4096);
	assert_int_equal(usage(&B->kmem), 0);
	assert_check_ok();

	/* A is empty of tasks now, and can go; it lingers for the page. */
	test_rmdir("/cgroup/A", 0);
	assert_int_equal(mem_cgroup_nr_dying(), 1);
	free_accounted_pages(page, ORDER_STACK);
	assert_int_equal(mem_cgroup_nr_dying(), 0);
	A = test_mkdir("/cgroup/A");
	assert_int_equal(mem_cgroup_move_task(ta, A), 0);
}

/* The allocation fails after the charge: commit_page gives it back, to
 * the stock. A reference per kernel page charged, owned or stocked, taken
 * and dropped in batches: the drain gives back the last of them. */
static void test_commit_null(void **state)
{
	struct mem_cgroup *handle;
	int refs;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	refs = A->refcnt;
	assert_true(memcg_kmem_new_page(GFP_ACCOUNT, &handle, 1));
	assert_ptr_equal(handle, A);
	assert_int_equal(A->refcnt, refs + CHARGE_BATCH);
	assert_int_equal(usage(&A->kmem), CHARGE_BATCH * 4096);
	assert_int_equal(memcg_stock_kmem_pages(A), CHARGE_BATCH - 2);
	memcg_kmem_commit_page(NULL, handle, 1);
	assert_int_equal(memcg_stock_kmem_pages(A), CHARGE_BATCH);
	assert_int_equal(A->refcnt, refs + CHARGE_BATCH);
	drain_all_stock(A);
	assert_int_equal(usage(&A->kmem), 0);
	assert_int_equal(usage(&A->res), 0);
	assert_int_equal(A->refcnt, refs);
}

/* Stocks on several CPUs; a charge that fails drains the others. */
static void test_stock_drained_on_failure(void **state)
{
	struct page *p1, *p0, *p0b;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	test_write("/cgroup/A/memory.limit_in_bytes", "132K", 0); /* 33 pages */
	host_set_cpu(1);
	p1 = alloc_pages(GFP_ACCOUNT, 0);           /* batch: 31 stocked */
	assert_int_equal(memcg_stock_of(1)->nr_kmem, CHARGE_BATCH - 1);
	host_set_cpu(0);
	p0 = alloc_pages(GFP_ACCOUNT, 0);           /* exact: 33 pages */
	assert_non_null(p0);
	assert_int_equal(usage(&A->res), 33 * 4096);
	p0b = alloc_pages(GFP_ACCOUNT, ORDER_STACK); /* needs CPU 1's stock */
	assert_non_null(p0b);
	assert_int_equal(memcg_stock_of(1)->nr_kmem, 0);
	assert_true(usage(&A->res) <= 33 * 4096);
	assert_int_equal(test_read_u64("/cgroup/A/memory.failcnt"), 1);
	assert_check_ok();
	free_accounted_pages(p1, 0);
	free_accounted_pages(p0, 0);
	free_accounted_pages(p0b, ORDER_STACK);
}

/* Without the stock, every charge goes to the counter. */
static void test_stock_disabled(void **state)
{
	struct page *page;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	memcg_stock_set_enabled(false);
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_int_equal(usage(&A->res), 4096);
	assert_int_equal(stock_of(A), 0);
	free_accounted_pages(page, 0);
	assert_int_equal(usage(&A->res), 0);
	memcg_stock_set_enabled(true);
}

/* Without the stock, a domain at its kmem limit: the exact charge (made
 * with interrupts off, inline in the page hook) stops at the limit to the
 * page; the refusal is counted once, gives back the res charge it made,
 * and drops the page's reference; freeing gives everything back. */
static void test_stock_disabled_at_limit(void **state)
{
	struct page *p[3];
	int refs = A->refcnt;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "8K", 0);
	memcg_stock_set_enabled(false);
	p[0] = alloc_pages(GFP_ACCOUNT, 0);
	p[1] = alloc_pages(GFP_ACCOUNT, 0);
	p[2] = alloc_pages(GFP_ACCOUNT | __GFP_NOWARN, 0);
	assert_non_null(p[0]);
	assert_non_null(p[1]);
	assert_null(p[2]);
	assert_int_equal(usage(&A->kmem), 2 * 4096);
	assert_int_equal(usage(&A->res), 2 * 4096);
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.failcnt"), 1);
	assert_int_equal(A->refcnt, refs + 2);
	assert_check_ok();
	free_accounted_pages(p[0], 0);
	free_accounted_pages(p[1], 0);
	assert_int_equal(usage(&A->kmem), 0);
	assert_int_equal(usage(&A->res), 0);
	assert_int_equal(A->refcnt, refs);
	assert_check_ok();
	memcg_stock_set_enabled(true);
}

/* The static key: on with the first kmem limit of a domain, and off only
 * when the domains that took it are gone. */
static void test_static_key(void **state)
{
	assert_int_equal(memcg_kmem_enabled_key.enabled, 0);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	assert_int_equal(memcg_kmem_enabled_key.enabled, 1);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "2M", 0);
	assert_int_equal(memcg_kmem_enabled_key.enabled, 1);
	test_write("/cgroup/B/memory.kmem.limit_in_bytes", "1M", 0);
	assert_int_equal(memcg_kmem_enabled_key.enabled, 2);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "-1", 0);
	assert_int_equal(memcg_kmem_enabled_key.enabled, 2);
	assert_false(memcg_kmem_is_accounted(A));
	/* teardown's rmdirs take it back to 0 */
}

/* Kernel stacks in memory.stat, as fork and exit report them. */
static void test_kernel_stack_stat(void **state)
{
	struct mem_cgroup_stat st;
	struct page *stack;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	stack = alloc_pages(THREADINFO_GFP_ACCOUNTED, ORDER_STACK);
	memcg_account_kernel_stack(stack, 1);
	assert_int_equal(mem_cgroup_read_stat(A, &st), 0);
	assert_int_equal(st.kernel_stack, STACK_BYTES);
	assert_int_equal(st.kmem, STACK_BYTES);
	assert_int_equal(st.stock, (CHARGE_BATCH - 4) * 4096);
	memcg_account_kernel_stack(stack, -1);
	free_accounted_pages(stack, ORDER_STACK);
	assert_int_equal(mem_cgroup_read_stat(A, &st), 0);
	assert_int_equal(st.kernel_stack, 0);
}

/* set_active_memcg: a system task (the shell, for `run`) allocates on a
 * domain's behalf; the charge goes to the active domain, and stops when
 * it is set back. */
static void test_active_memcg(void **state)
{
	struct task *sys = test_task(NULL);
	struct mem_cgroup *old;
	struct page *page;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	sys->flags |= TASK_SYSTEM;
	host_set_current(sys);
	old = set_active_memcg(A);
	assert_null(old);
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_ptr_equal(page->memcg, A);
	set_active_memcg(old);
	free_accounted_pages(page, 0);
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_false(page->flags & PG_kmemcg);
	free_accounted_pages(page, 0);
	host_set_current(ta);
	sys->flags &= ~TASK_SYSTEM;
	test_task_exit(sys);
	drain_all_stock(A);
	assert_int_equal(usage(&A->kmem), 0);
}

/* A task moved while it allocates for another domain: that domain pays
 * until it is set back, then the task's new one; `check` sees a payer
 * that is neither. */
static void test_active_memcg_survives_move(void **state)
{
	char why[256];
	struct mem_cgroup *old;
	struct page *page;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	test_write("/cgroup/B/memory.kmem.limit_in_bytes", "1M", 0);
	old = set_active_memcg(B);
	assert_ptr_equal(memcg_kmem_payer(ta, GFP_KERNEL), B);
	assert_int_equal(mem_cgroup_move_task(ta, root_mem_cgroup), 0);
	assert_ptr_equal(memcg_kmem_payer(ta, GFP_KERNEL), B);
	assert_check_ok();
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_ptr_equal(page->memcg, B);
	free_accounted_pages(page, 0);

	set_active_memcg(old);
	assert_ptr_equal(memcg_kmem_payer(ta, GFP_KERNEL), root_mem_cgroup);
	page = alloc_pages(GFP_ACCOUNT, 0);
	assert_false(page->flags & PG_kmemcg);
	free_accounted_pages(page, 0);
	assert_int_equal(mem_cgroup_move_task(ta, A), 0);
	assert_ptr_equal(memcg_kmem_payer(ta, GFP_KERNEL), A);

	ta->kmem_payer = B;  /* as a missed update would leave it */
	assert_int_not_equal(memcg_check(why, sizeof(why)), 0);
	assert_non_null(strstr(why, "kmem_payer"));
	ta->kmem_payer = A;
	drain_all_stock(NULL);
	assert_int_equal(usage(&B->kmem), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_config1_not_accounted),
		T(test_charge_and_stock),
		T(test_stock_other_domain),
		T(test_stock_high),
		T(test_active_memcg),
		T(test_active_memcg_survives_move),
		T(test_config2_kmem_limit),
		T(test_config3_user_limit),
		T(test_kmem_refusal_uncharges_res),
		T(test_not_charged),
		T(test_handle_survives_move),
		T(test_commit_null),
		T(test_stock_drained_on_failure),
		T(test_stock_disabled),
		T(test_stock_disabled_at_limit),
		T(test_static_key),
		T(test_kernel_stack_stat),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
