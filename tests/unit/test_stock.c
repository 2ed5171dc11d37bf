// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_stock.c - mm/memcg/stock.c, the per-CPU charge stock:
 * consume, refill (draining another domain's stock first), drain on all
 * CPUs of a subtree only, no stock for a dying domain, and the batch charge of
 * mem_cgroup_try_charge that feeds it; a CPU's stock used with
 * interrupts off only, and refills racing drains from another CPU.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/memcg_test.h"

static struct mem_cgroup *A, *B;

static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	B = test_mkdir("/cgroup/B");
	return 0;
}

static int teardown(void **state)
{
	drain_all_stock(NULL);
	test_rmdir("/cgroup/A", 0);
	test_rmdir("/cgroup/B", 0);
	return memcg_test_teardown(state);
}

/* stocks_hold_any - does some CPU's stock hold pages at all? */
static bool stocks_hold_any(void)
{
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		if (memcg_stock_of(cpu)->nr_pages || memcg_stock_of(cpu)->nr_kmem)
			return true;
	return false;
}

/* charge - what the charge path does before refill_stock: charge res. */
static void charge(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	struct res_counter *fail;

	assert_int_equal(res_counter_charge(&memcg->res, nr_pages * 4096l,
					    &fail), 0);
}

static void test_consume_refill(void **state)
{
	assert_false(consume_stock(A, 1, false));     /* empty */
	charge(A, 10);
	refill_stock(A, 10, false);
	assert_ptr_equal(memcg_stock_of(0)->cached, A);
	assert_true(consume_stock(A, 4, false));       /* multi-page */
	assert_int_equal(memcg_stock_of(0)->nr_pages, 6);
	assert_false(consume_stock(A, 7, false));      /* not enough */
	assert_false(consume_stock(B, 1, false));      /* another domain */
	assert_false(consume_stock(A, CHARGE_BATCH + 1, false));
	assert_true(consume_stock(A, 6, false));
	assert_int_equal(memcg_stock_of(0)->nr_pages, 0);
	res_counter_uncharge(&A->res, 10 * 4096);
}

static void test_refill_drains_previous(void **state)
{
	charge(A, 8);
	refill_stock(A, 8, false);
	charge(B, 3);
	refill_stock(B, 3, false);
	assert_ptr_equal(memcg_stock_of(0)->cached, B);
	assert_int_equal(memcg_stock_of(0)->nr_pages, 3);
	assert_int_equal(usage(&A->res), 0);   /* A's 8 went back */
	assert_int_equal(usage(&B->res), 3 * 4096);
	assert_check_ok();
}

static void test_per_cpu(void **state)
{
	host_set_cpu(1);
	charge(A, 5);
	refill_stock(A, 5, false);
	host_set_cpu(2);
	charge(B, 7);
	refill_stock(B, 7, false);
	host_set_cpu(0);
	assert_false(consume_stock(A, 1, false));     /* CPU 0 has none */
	assert_int_equal(memcg_stock_pages(A), 5);
	assert_int_equal(memcg_stock_pages(B), 7);
	assert_true(stocks_hold_any());
	assert_check_ok();

	drain_all_stock(A);                     /* only A's */
	assert_int_equal(memcg_stock_pages(A), 0);
	assert_null(memcg_stock_of(1)->cached);
	assert_int_equal(memcg_stock_pages(B), 7);
	assert_int_equal(usage(&A->res), 0);
	drain_all_stock(NULL);
	assert_int_equal(usage(&B->res), 0);
	assert_false(stocks_hold_any());
}

/* Draining a domain drains its subtree (with use_hierarchy). */
static void test_drain_subtree(void **state)
{
	struct mem_cgroup *c;

	mem_cgroup_set_use_hierarchy(A, true);
	c = test_mkdir("/cgroup/A/C");
	host_set_cpu(1);
	charge(c, 4);
	refill_stock(c, 4, false);
	host_set_cpu(2);
	charge(B, 4);
	refill_stock(B, 4, false);
	host_set_cpu(0);
	assert_int_equal(usage(&A->res), 4 * 4096);
	drain_all_stock(A);
	assert_int_equal(usage(&A->res), 0);
	assert_int_equal(usage(&c->res), 0);
	assert_int_equal(memcg_stock_pages(B), 4);
	test_rmdir("/cgroup/A/C", 0);
	mem_cgroup_set_use_hierarchy(A, false);
}

/* A dying domain is never stocked: nothing would drain it again. */
static void test_dying_not_stocked(void **state)
{
	struct mem_cgroup *d = test_mkdir("/cgroup/D");

	charge(d, 5);
	refill_stock(d, 5, false);
	mem_cgroup_get(d);          /* a charge in flight holds one */
	test_rmdir("/cgroup/D", 0); /* drains */
	assert_int_equal(usage(&d->res), 0);
	charge(d, 3);
	refill_stock(d, 3, false);         /* late: uncharged at once */
	assert_int_equal(usage(&d->res), 0);
	assert_int_equal(memcg_stock_pages(d), 0);
	assert_int_equal(mem_cgroup_nr_dying(), 1);
	mem_cgroup_put(d);
	assert_int_equal(mem_cgroup_nr_dying(), 0);
}

/* mem_cgroup_try_charge: a batch, the surplus stocked; a limit smaller
 * than the batch is used exactly. */
static void test_try_charge_batch(void **state)
{
	struct mem_cgroup *over = NULL;

	assert_int_equal(mem_cgroup_try_charge(A, GFP_KERNEL, 1, &over), 0);
	assert_int_equal(usage(&A->res), CHARGE_BATCH * 4096);
	assert_int_equal(memcg_stock_of(0)->nr_pages, CHARGE_BATCH - 1);
	assert_int_equal(mem_cgroup_try_charge(A, GFP_KERNEL, CHARGE_BATCH - 1,
					       &over), 0);
	assert_int_equal(memcg_stock_of(0)->nr_pages, 0);
	/* More than a batch at once: exactly that, nothing stocked. */
	assert_int_equal(mem_cgroup_try_charge(A, GFP_KERNEL, 40, &over), 0);
	assert_int_equal(usage(&A->res), (CHARGE_BATCH + 40) * 4096);
	assert_int_equal(memcg_stock_of(0)->nr_pages, 0);
	mem_cgroup_uncharge(A, CHARGE_BATCH + 40);

	/* 10 pages of limit: the batch does not fit, each page does. */
	test_write("/cgroup/A/memory.limit_in_bytes", "40K", 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(mem_cgroup_try_charge(A, GFP_KERNEL, 1, &over),
				 0);
	assert_int_equal(A->res.failcnt, 0);  /* wishes are not failures */
	assert_int_equal(mem_cgroup_try_charge(A, GFP_KERNEL, 1, &over),
			 -ENOMEM);
	assert_ptr_equal(over, A);
	assert_int_equal(A->res.failcnt, 1);
	assert_int_equal(usage(&A->res), 40960);
	mem_cgroup_uncharge(A, 10);
	/* GFP_ATOMIC: no draining, no reclaim, the same answer. */
	charge(A, 10);
	assert_int_equal(mem_cgroup_try_charge(A, GFP_ATOMIC, 1, &over),
			 -ENOMEM);
	mem_cgroup_uncharge(A, 10);
	assert_check_ok();
}

static unsigned int drains;

/* count_drains - smp_call_function_all as the host runs it, counted. */
static void count_drains(void (*fn)(void *), void *arg)
{
	unsigned int saved = host_cpu;

	drains++;
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		host_cpu = cpu;
		fn(arg);
	}
	host_cpu = saved;
}

/* A refused charge drains the stocks (an IPI to every CPU) only when the
 * subtree's stocked pages could make it fit: not for another domain's
 * stock, and not again and again for a domain stuck at its limit (a fork
 * bomb retrying every tick). */
static void test_drain_only_if_it_helps(void **state)
{
	struct mem_cgroup *over = NULL;

	test_write("/cgroup/A/memory.limit_in_bytes", "160K", 0); /* 40 pages */
	drains = 0;
	host_call_function_hook = count_drains;

	/* CPU 1 holds 31 of A's pages; CPU 0 needs 16: only a drain makes
	 * room (8 pages of margin + 31 stocked). */
	host_set_cpu(1);
	assert_int_equal(mem_cgroup_try_charge(A, GFP_KERNEL, 1, &over), 0);
	host_set_cpu(2);
	charge(B, 4);
	refill_stock(B, 4, false);
	host_set_cpu(0);
	assert_int_equal(mem_cgroup_try_charge(A, GFP_KERNEL, 16, &over), 0);
	assert_int_equal(drains, 1);
	assert_null(memcg_stock_of(1)->cached);              /* CPU 1's went back */
	assert_int_equal(memcg_stock_pages(B), 4);       /* not B's */
	/* After the drain the batch fitted: 1 + 32 pages, 16 stocked here. */
	assert_int_equal(usage(&A->res), 33 * 4096);
	assert_int_equal(memcg_stock_pages(A), 16);

	/* At the limit with nothing of A's stocked: refused, no drain -
	 * B's stock on CPU 2 is no reason to interrupt every CPU. */
	assert_true(consume_stock(A, 16, false));
	charge(A, 7);
	for (int i = 0; i < 100; i++)
		assert_int_equal(mem_cgroup_try_charge(A, GFP_KERNEL, 4, &over),
				 -ENOMEM);
	assert_int_equal(drains, 1);
	assert_int_equal(memcg_stock_pages_subtree(A, false), 0);
	assert_int_equal(memcg_stock_pages_subtree(B, false), 4);

	host_call_function_hook = NULL;
	mem_cgroup_uncharge(A, 40);
	assert_check_ok();
}

/* The root is never charged, nor stocked. */
static void test_root_never(void **state)
{
	assert_int_equal(mem_cgroup_try_charge(root_mem_cgroup, GFP_KERNEL, 3,
					       NULL), 0);
	assert_int_equal(usage(&root_mem_cgroup->res), 0);
	assert_null(memcg_stock_of(0)->cached);
	mem_cgroup_uncharge(root_mem_cgroup, 3);
	assert_int_equal(usage(&root_mem_cgroup->res), 0);
}

/* --- interrupts off: the stock's lock ------------------------------------ */

/* Every use of this CPU's stock - consume, refill, the drain of another
 * domain's stock inside a refill, a drain by IPI - happens with
 * interrupts off (the host records it: tests/unit/host_platform.h). */
static void test_interrupts_off(void **state)
{
	host_irq_checks(true);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		host_set_cpu(cpu);
		charge(A, 6);
		refill_stock(A, 6, false);
		assert_true(consume_stock(A, 2, false));
		charge(B, 3);
		refill_stock(B, 3, false);   /* drains A's 4 first */
		assert_false(consume_stock(A, 1, false));
	}
	host_set_cpu(0);
	drain_all_stock(NULL);
	mem_cgroup_uncharge(A, 4);
	assert_int_equal(usage(&A->res), 0);
	assert_int_equal(usage(&B->res), 0);
	if (host_irq_unguarded())
		fail_msg("a CPU's stock was used with interrupts on %lu "
			 "time(s), first in %s: a drain IPI arriving there "
			 "could empty the stock under that code",
			 host_irq_unguarded(), host_irq_unguarded_where());
	host_irq_checks(false);
}

/*
 * CPU 1 refills its stock for A and for B in turn (each switch drains the
 * other's pages back) and takes pages from it; CPU 0, meanwhile, drains
 * every stock by IPI again and again. The host makes interrupts off
 * CPU 1's lock, taken by the IPI's part for CPU 1 too, as in the kernel:
 * a drain runs between CPU 1's sections, never inside one. A refill or
 * a drain whose steps an IPI can come between loses pages or gives
 * them back twice: the counters are then not 0 at the end.
 */
#define RACE_ROUNDS 100000

static _Atomic int refiller_done;
static _Atomic long race_drains;

static void *race_refiller(void *arg)
{
	host_set_cpu(1);
	for (int i = 0; i < RACE_ROUNDS; i++) {
		struct mem_cgroup *memcg = (i / 4) % 2 ? B : A;

		charge(memcg, 3);
		refill_stock(memcg, 3, false);
		if (consume_stock(memcg, 2, false))
			mem_cgroup_uncharge(memcg, 2);
	}
	refiller_done = 1;
	return NULL;
}

static void *race_drainer(void *arg)
{
	host_set_cpu(0);
	while (!refiller_done) {
		drain_all_stock(NULL);
		race_drains++;
	}
	return NULL;
}

static void test_refill_races_drain(void **state)
{
	pthread_t refiller, drainer;

	host_irqs_as_locks(true);
	refiller_done = 0;
	race_drains = 0;
	pthread_create(&drainer, NULL, race_drainer, NULL);
	pthread_create(&refiller, NULL, race_refiller, NULL);
	pthread_join(refiller, NULL);
	pthread_join(drainer, NULL);
	host_irqs_as_locks(false);
	host_set_cpu(0);
	drain_all_stock(NULL);
	if (usage(&A->res) || usage(&B->res))
		fail_msg("after %d refills racing %ld drains, and a last "
			 "drain, A's res usage is %lld and B's %lld (both "
			 "should be 0): stocked pages were lost or given back "
			 "twice", RACE_ROUNDS, (long)race_drains,
			 (long long)usage(&A->res), (long long)usage(&B->res));
	assert_false(stocks_hold_any());
	assert_check_ok();
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_consume_refill),
		T(test_refill_drains_previous),
		T(test_per_cpu),
		T(test_drain_subtree),
		T(test_dying_not_stocked),
		T(test_try_charge_batch),
		T(test_drain_only_if_it_helps),
		T(test_root_never),
		T(test_interrupts_off),
		T(test_refill_races_drain),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
