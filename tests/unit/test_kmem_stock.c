// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_kmem_stock.c - kernel charge held in the per-CPU stocks
 * (mm/memcg/stock.c, mm/memcg/memcg_charge.c): the accounting invariant
 * (kmem usage = pages owned + kmem stocked on CPUs) through every drain,
 * rmdir of a domain whose charge is spread over stocks and pages, a kmem
 * limit set below the usage, and threads charging and uncharging one
 * domain at once.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/memcg_test.h"

static struct mem_cgroup *A;
static struct task *ta;

static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "4M", 0);
	ta = test_task(A);
	return 0;
}

static int teardown(void **state)
{
	host_set_current(NULL);
	host_set_cpu(0);
	drain_all_stock(NULL);
	assert_check_ok();
	test_task_exit(ta);
	test_rmdir("/cgroup/A", 0);
	return memcg_test_teardown(state);
}

/* alloc_on - an accounted page of order, allocated by ta on cpu. */
static struct page *alloc_on(unsigned int cpu, unsigned int order)
{
	struct page *page;

	host_set_cpu(cpu);
	host_set_current(ta);
	page = alloc_pages(GFP_ACCOUNT | __GFP_NOWARN, order);
	host_set_current(NULL);
	host_set_cpu(0);
	return page;
}

static void free_on(unsigned int cpu, struct page *page, unsigned int order)
{
	host_set_cpu(cpu);
	free_accounted_pages(page, order);
	host_set_cpu(0);
}

/* The counter equals owned pages + stocked kernel charge at each step:
 * batches on three CPUs, a page freed on another CPU than its own, a
 * drain of one subtree, a drain of all. */
static void test_invariant_through_drain(void **state)
{
	struct page *p[3];

	p[0] = alloc_on(0, 0);
	p[1] = alloc_on(1, 2);
	p[2] = alloc_on(2, 0);
	assert_int_equal(usage(&A->kmem), 3 * CHARGE_BATCH * 4096);
	assert_int_equal(owned_kmem(A), 6 * 4096);
	assert_int_equal(memcg_stock_of(1)->nr_kmem, CHARGE_BATCH - 4);
	assert_check_ok();

	free_on(2, p[1], 2);  /* CPU 2's stock caches A: it takes them */
	assert_int_equal(memcg_stock_of(2)->nr_kmem, CHARGE_BATCH - 1 + 4);
	assert_int_equal(owned_kmem(A), 2 * 4096);
	assert_check_ok();

	drain_all_stock(A);
	assert_int_equal(usage(&A->kmem), 2 * 4096);
	assert_int_equal(usage(&A->res), 2 * 4096);
	assert_int_equal(memcg_stock_pages(A), 0);
	assert_check_ok();

	free_on(0, p[0], 0);   /* no stock caches A now: to the counters */
	free_on(1, p[2], 0);
	assert_int_equal(usage(&A->kmem), 0);
	assert_int_equal(usage(&A->res), 0);
	assert_check_ok();
}

/* rmdir of a domain whose kernel charge is in two stocks and a page: the
 * stocks are drained, the domain lingers (dying) for the page, is never
 * stocked again, and goes with the page. */
static void test_rmdir_dying(void **state)
{
	struct mem_cgroup *D = test_mkdir("/cgroup/D");
	struct task *td = test_task(D);
	struct page *page, *other;

	test_write("/cgroup/D/memory.kmem.limit_in_bytes", "1M", 0);
	host_set_cpu(1);
	host_set_current(td);
	other = alloc_pages(GFP_ACCOUNT, 0);
	host_set_cpu(0);
	page = alloc_pages(GFP_ACCOUNT, 2);
	host_set_current(NULL);
	free_on(1, other, 0);
	assert_int_equal(memcg_stock_kmem_pages(D), 2 * CHARGE_BATCH - 4);
	test_task_exit(td);

	test_rmdir("/cgroup/D", 0);
	assert_int_equal(mem_cgroup_nr_dying(), 1);
	assert_int_equal(memcg_stock_pages(D), 0);
	assert_int_equal(usage(&D->kmem), 4 * 4096);
	assert_int_equal(usage(&D->res), 4 * 4096);
	assert_check_ok();

	/* The page comes back on a CPU whose stock no longer caches D: the
	 * counters take it, and the last reference frees D. */
	free_accounted_pages(page, 2);
	assert_int_equal(mem_cgroup_nr_dying(), 0);
	assert_check_ok();
}

/* A kmem limit below the usage: refused (EBUSY) when the pages owned are
 * above it; accepted when only stocked charge is, which goes back first. */
static void test_limit_below_usage(void **state)
{
	struct page *pages[8];

	for (int i = 0; i < 8; i++)
		pages[i] = alloc_on(0, 0);
	assert_int_equal(usage(&A->kmem), CHARGE_BATCH * 4096);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "28K", -EBUSY);
	assert_true(A->kmem.limit == 4 << 20);       /* unchanged */
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "32K", 0);
	assert_int_equal(usage(&A->kmem), 8 * 4096); /* the stock went back */
	assert_int_equal(memcg_stock_pages(A), 0);
	/* At the limit: the next page is refused, and counted. */
	assert_null(alloc_on(1, 0));
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.failcnt"), 1);
	assert_check_ok();
	for (int i = 0; i < 8; i++)
		free_on(0, pages[i], 0);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "4M", 0);
}

/* --- threads ------------------------------------------------------------- */

#define THREADS 4
#define ROUNDS 3000

static _Atomic long refused;

/* churn - one thread (one CPU) allocating and freeing accounted pages of
 * A, orders 0 and 2, holding up to eight at a time. GFP_ATOMIC: a host
 * drain would run the other CPUs' parts on this thread. */
static void *churn(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	struct page *held[8] = {0};

	host_set_cpu(cpu);
	host_set_current(ta);
	for (int i = 0; i < ROUNDS; i++) {
		int slot = i % 8;
		unsigned int order = (i % 5 == 0) ? 2 : 0;

		if (held[slot])
			free_accounted_pages(held[slot],
					     held[slot]->order);
		held[slot] = alloc_pages(GFP_ACCOUNT | GFP_ATOMIC |
					 __GFP_NOWARN, order);
		if (!held[slot])
			refused++;
		else if (held[slot]->memcg != A)
			fail_msg("page charged to the wrong domain");
	}
	for (int slot = 0; slot < 8; slot++)
		if (held[slot])
			free_accounted_pages(held[slot], held[slot]->order);
	host_set_current(NULL);
	return NULL;
}

/* Four threads charge and uncharge A at once, under a limit they hit now
 * and then: the counters never pass the limit, and when all is freed and
 * drained nothing is left charged. */
static void test_threads(void **state)
{
	pthread_t t[THREADS];

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "512K", 0);
	refused = 0;
	for (uintptr_t i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, churn, (void *)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	assert_true(usage(&A->kmem) <= 512 * 1024);
	assert_int_equal(owned_kmem(A), 0);
	assert_check_ok();
	drain_all_stock(NULL);
	assert_int_equal(usage(&A->kmem), 0);
	assert_int_equal(usage(&A->res), 0);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "4M", 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_invariant_through_drain),
		T(test_rmdir_dying),
		T(test_limit_below_usage),
		T(test_threads),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
