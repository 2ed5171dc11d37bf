// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_res_counter.c - mm/memcg/res_counter.c: charges up a tree of
 * counters, refusal at the first full ancestor with its failcnt, rollback
 * of the partial charge, limits, resets, and many threads charging one
 * counter at once (failcnt exact, the limit never passed even for a
 * moment); the two-chain charge and uncharge of a kernel page
 * (__res_counter_try_charge_two, __res_counter_try_uncharge_two) with
 * their refusal and underflow ends; the line-transfer count behind its
 * static key.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mm/memcg/res_counter.h"
#include "tests/unit/host_console.h"

#define DEPTH 4

/* c[0] is the top, c[DEPTH-1] the leaf. */
static struct res_counter c[DEPTH];

static void make_chain(void)
{
	for (int i = 0; i < DEPTH; i++)
		res_counter_init(&c[i], i ? &c[i - 1] : NULL);
}

static void test_init(void **state)
{
	struct res_counter r;

	res_counter_init(&r, NULL);
	assert_int_equal(res_counter_read_u64(&r, RES_USAGE), 0);
	assert_int_equal(res_counter_read_u64(&r, RES_MAX_USAGE), 0);
	assert_int_equal(res_counter_read_u64(&r, RES_FAILCNT), 0);
	assert_true(res_counter_read_u64(&r, RES_LIMIT) ==
		    9223372036854775807ull);
}

static void test_charge_hierarchy(void **state)
{
	struct res_counter *fail = (void *)1;

	make_chain();
	assert_int_equal(res_counter_charge(&c[DEPTH - 1], 4096, &fail), 0);
	assert_null(fail);
	for (int i = 0; i < DEPTH; i++) {
		assert_int_equal(c[i].usage, 4096);
		assert_int_equal(c[i].max_usage, 4096);
	}
	/* A charge in the middle does not touch what is below. */
	assert_int_equal(res_counter_charge(&c[1], 8192, &fail), 0);
	assert_int_equal(c[0].usage, 12288);
	assert_int_equal(c[1].usage, 12288);
	assert_int_equal(c[2].usage, 4096);
	res_counter_uncharge(&c[DEPTH - 1], 4096);
	res_counter_uncharge(&c[1], 8192);
	for (int i = 0; i < DEPTH; i++) {
		assert_int_equal(c[i].usage, 0);
		assert_int_equal(c[i].max_usage, i < 2 ? 12288 : 4096);
	}
}

/* At every level in turn, a limit that refuses: that counter gets the
 * failcnt, and no counter keeps any of the charge. */
static void test_rollback_every_level(void **state)
{
	for (int level = 0; level < DEPTH; level++) {
		struct res_counter *fail = NULL;

		make_chain();
		for (int i = 0; i < DEPTH; i++)
			assert_int_equal(res_counter_charge(&c[DEPTH - 1], 4096,
							    &fail), 0);
		/* everyone has 16K; level may hold 20K */
		assert_int_equal(res_counter_set_limit(&c[level], 20480), 0);
		assert_int_equal(res_counter_charge(&c[DEPTH - 1], 4096, &fail),
				 0);
		assert_int_equal(res_counter_charge(&c[DEPTH - 1], 4096, &fail),
				 -ENOMEM);
		assert_ptr_equal(fail, &c[level]);
		for (int i = 0; i < DEPTH; i++) {
			assert_int_equal(c[i].usage, 20480);
			assert_int_equal(c[i].failcnt, i == level ? 1 : 0);
		}
	}
}

static void test_exact_limit(void **state)
{
	struct res_counter *fail;

	make_chain();
	assert_int_equal(res_counter_set_limit(&c[3], 8192), 0);
	assert_int_equal(res_counter_charge(&c[3], 8192, &fail), 0);
	assert_int_equal(res_counter_margin(&c[3]), 0);
	assert_int_equal(res_counter_charge(&c[3], 1, &fail), -ENOMEM);
	res_counter_uncharge(&c[3], 4096);
	assert_int_equal(res_counter_margin(&c[3]), 4096);
}

static void test_charge_quiet_no_failcnt(void **state)
{
	struct res_counter *fail;

	make_chain();
	assert_int_equal(res_counter_set_limit(&c[1], 4096), 0);
	assert_int_equal(res_counter_charge_quiet(&c[3], 8192, &fail), -ENOMEM);
	assert_ptr_equal(fail, &c[1]);
	assert_int_equal(c[1].failcnt, 0);
	assert_int_equal(c[3].usage, 0);
	assert_int_equal(res_counter_charge_quiet(&c[3], 4096, &fail), 0);
	assert_int_equal(c[0].usage, 4096);
}

/* A limit below the usage is refused (EBUSY) and changes nothing; at the
 * usage it is taken, and then the next page is refused and counted. */
static void test_limit_below_usage(void **state)
{
	struct res_counter *fail;

	make_chain();
	assert_int_equal(res_counter_charge(&c[3], 3 * 4096, &fail), 0);
	assert_int_equal(res_counter_set_limit(&c[2], 2 * 4096), -EBUSY);
	assert_true(c[2].limit == RES_COUNTER_MAX);
	assert_int_equal(res_counter_set_limit(&c[2], 3 * 4096), 0);
	assert_int_equal(res_counter_charge(&c[3], 4096, &fail), -ENOMEM);
	assert_ptr_equal(fail, &c[2]);
	assert_int_equal(c[2].failcnt, 1);
	assert_int_equal(c[3].usage, 3 * 4096);  /* rolled back */
	assert_int_equal(c[2].max_usage, 3 * 4096);
	res_counter_uncharge(&c[3], 3 * 4096);
	assert_int_equal(res_counter_set_limit(&c[2], RES_COUNTER_MAX), 0);
}

static void test_set_limit_busy(void **state)
{
	struct res_counter *fail;

	make_chain();
	assert_int_equal(res_counter_charge(&c[3], 16384, &fail), 0);
	assert_int_equal(res_counter_set_limit(&c[3], 8192), -EBUSY);
	assert_true(c[3].limit == RES_COUNTER_MAX);
	assert_int_equal(res_counter_set_limit(&c[3], 16384), 0);
	assert_int_equal(c[3].limit, 16384);
	assert_int_equal(res_counter_set_limit(&c[3], RES_COUNTER_MAX), 0);
}

static void test_resets(void **state)
{
	struct res_counter *fail;

	make_chain();
	res_counter_set_limit(&c[3], 8192);
	res_counter_charge(&c[3], 8192, &fail);
	res_counter_charge(&c[3], 8192, &fail);
	res_counter_uncharge(&c[3], 4096);
	assert_int_equal(c[3].max_usage, 8192);
	assert_int_equal(c[3].failcnt, 1);
	res_counter_reset_max(&c[3]);
	assert_int_equal(res_counter_read_u64(&c[3], RES_MAX_USAGE), 4096);
	res_counter_reset_failcnt(&c[3]);
	assert_int_equal(res_counter_read_u64(&c[3], RES_FAILCNT), 0);
}

static void test_uncharge_until(void **state)
{
	struct res_counter *fail;

	make_chain();
	res_counter_charge(&c[3], 4096, &fail);
	res_counter_uncharge_until(&c[3], &c[1], 4096);
	assert_int_equal(c[3].usage, 0);
	assert_int_equal(c[2].usage, 0);
	assert_int_equal(c[1].usage, 4096);
	assert_int_equal(c[0].usage, 4096);
	assert_true(res_counter_is_ancestor(&c[3], &c[0]));
	assert_false(res_counter_is_ancestor(&c[0], &c[3]));
}

/* --- two chains: __res_counter_try_charge_two and its uncharge -------- */

/* charge_two, uncharge_two - a kernel page's charge of two chains, as
 * mm/memcg/memcg_charge.c makes it: all or nothing, quiet; and its
 * uncharge, with the report of an underflow. */
static int charge_two(struct res_counter *first, struct res_counter *second,
		      int64_t val)
{
	return __res_counter_try_charge_two(first, second, val) ? -ENOMEM : 0;
}

static void uncharge_two(struct res_counter *first, struct res_counter *second,
			 int64_t val)
{
	struct res_counter *at = __res_counter_try_uncharge_two(first, second,
								val);

	if (at)
		res_counter_uncharge_two_underflow(first, second, at, val);
}

/* d[] is a second chain beside c[], as a domain's kmem beside its res. */
static struct res_counter d[DEPTH];

static void make_two_chains(void)
{
	make_chain();
	for (int i = 0; i < DEPTH; i++)
		res_counter_init(&d[i], i ? &d[i - 1] : NULL);
}

static void test_charge_two(void **state)
{
	make_two_chains();
	assert_int_equal(charge_two(&c[DEPTH - 1], &d[DEPTH - 1],
						4096), 0);
	for (int i = 0; i < DEPTH; i++) {
		assert_int_equal(c[i].usage, 4096);
		assert_int_equal(d[i].usage, 4096);
		assert_int_equal(c[i].max_usage, 4096);
		assert_int_equal(d[i].max_usage, 4096);
	}
	uncharge_two(&d[DEPTH - 1], &c[DEPTH - 1], 4096);
	for (int i = 0; i < DEPTH; i++) {
		assert_int_equal(c[i].usage, 0);
		assert_int_equal(d[i].usage, 0);
	}
}

/* A refusal at every level of either chain: all or nothing, and quiet
 * (no failcnt anywhere). */
static void test_charge_two_refused_every_level(void **state)
{
	for (int chain = 0; chain < 2; chain++) {
		for (int level = 0; level < DEPTH; level++) {
			struct res_counter *full = chain ? &d[level] : &c[level];

			make_two_chains();
			assert_int_equal(charge_two(&c[DEPTH - 1],
								&d[DEPTH - 1],
								8192), 0);
			assert_int_equal(res_counter_set_limit(full, 12288), 0);
			assert_int_equal(charge_two(&c[DEPTH - 1],
								&d[DEPTH - 1],
								8192),
					 -ENOMEM);
			for (int i = 0; i < DEPTH; i++) {
				assert_int_equal(c[i].usage, 8192);
				assert_int_equal(d[i].usage, 8192);
				assert_int_equal(c[i].failcnt, 0);
				assert_int_equal(d[i].failcnt, 0);
			}
			/* What still fits is charged. */
			assert_int_equal(charge_two(&c[DEPTH - 1],
								&d[DEPTH - 1],
								4096), 0);
			assert_int_equal(full->usage, 12288);
		}
	}
}

/* More given back than was charged, at every level of either chain: the
 * bug is reported, and every counter still gets its uncharge. */
static void test_uncharge_two_underflow(void **state)
{
	for (int chain = 0; chain < 2; chain++) {
		for (int level = 0; level < DEPTH; level++) {
			struct res_counter *low = chain ? &d[level] : &c[level];

			make_two_chains();
			assert_int_equal(charge_two(&c[DEPTH - 1],
								&d[DEPTH - 1],
								8192), 0);
			res_counter_uncharge(low, 4096);  /* and its parents */
			host_console_capture(true);
			uncharge_two(&d[DEPTH - 1], &c[DEPTH - 1],
						 8192);
			assert_non_null(strstr(host_console_output(),
					       "more was given back"));
			host_console_capture(false);
			for (int i = 0; i < DEPTH; i++) {
				struct res_counter *x = chain ? &d[i] : &c[i];
				struct res_counter *y = chain ? &c[i] : &d[i];

				assert_int_equal(x->usage,
						 i <= level ? -4096 : 0);
				assert_int_equal(y->usage, 0);
			}
		}
	}
}

static void test_uncharge_until_underflow(void **state)
{
	struct res_counter *fail;

	make_chain();
	assert_int_equal(res_counter_charge(&c[1], 4096, &fail), 0);
	host_console_capture(true);
	res_counter_uncharge_until(&c[3], &c[0], 4096);
	assert_non_null(strstr(host_console_output(), "more was given back"));
	host_console_capture(false);
	assert_int_equal(c[3].usage, -4096);
	assert_int_equal(c[2].usage, -4096);
	assert_int_equal(c[1].usage, 0);
	assert_int_equal(c[0].usage, 4096);
}

/* --- line transfers (mm/line_transfer.h) --------------------------------- */

/* Writes count only while line_transfer_key is on; then each write by a
 * CPU other than the line's last writer is one transfer. */
static void test_line_transfers(void **state)
{
	struct res_counter *fail;

	make_chain();
	host_set_cpu(0);
	res_counter_charge(&c[3], 4096, &fail);
	host_set_cpu(1);
	res_counter_uncharge(&c[3], 4096);
	assert_int_equal(line_transfers(&c[3].line), 0);

	line_transfer_count_start();
	host_set_cpu(0);
	res_counter_charge(&c[3], 4096, &fail);  /* from CPU 1: a transfer */
	res_counter_uncharge(&c[3], 4096);       /* stays on CPU 0 */
	host_set_cpu(1);
	res_counter_charge(&c[3], 4096, &fail);  /* a transfer */
	line_transfer_count_stop();
	host_set_cpu(0);
	res_counter_uncharge(&c[3], 4096);       /* not counted */
	assert_int_equal(line_transfers(&c[3].line), 2);
	assert_int_equal(line_transfers(&c[0].line), 2);
	assert_int_equal(line_transfer_key.enabled, 0);
}

/* --- many threads, one counter tree ------------------------------------- */

/* A few threads charging one lock-free tree at once: compare-and-swap
 * retries, refusals and rollbacks race, and the sums must still add up. */
#define THREADS 4
#define ROUNDS 100000

static _Atomic long charged_ok, refusals;

static void *charger(void *arg)
{
	long ok = 0, refused = 0;

	for (int i = 0; i < ROUNDS; i++) {
		struct res_counter *fail;

		if (res_counter_charge(&c[DEPTH - 1], 4096, &fail) == 0) {
			ok++;
			if (i % 3 == 0) {
				res_counter_uncharge(&c[DEPTH - 1], 4096);
				ok--;
			}
		} else {
			refused++;
		}
	}
	charged_ok += ok;
	refusals += refused;
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t t[THREADS];

	make_chain();
	/* The limit is hit half way: refusals and rollbacks race too. */
	res_counter_set_limit(&c[1], (int64_t)THREADS * ROUNDS * 4096 / 3);
	charged_ok = 0;
	refusals = 0;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, charger, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < DEPTH; i++) {
		if (c[i].usage != charged_ok * 4096)
			fail_msg("counter %d (0: the top) has usage %lld after "
				 "%ld pages kept: bytes were lost or gained",
				 i, (long long)c[i].usage, (long)charged_ok);
		assert_true(c[i].usage <= c[i].limit);
	}
	if ((long)c[1].failcnt != refusals)
		fail_msg("failcnt of the counter with the limit is %llu, but "
			 "%ld charges were refused",
			 (unsigned long long)c[1].failcnt, (long)refusals);
	assert_true(refusals > 0);
	assert_true(c[1].max_usage <= c[1].limit);
	assert_int_equal(c[0].failcnt + c[2].failcnt + c[3].failcnt, 0);
}

/* --- failcnt counts every refusal, from any CPU at once ------------------ */

#define REFUSALS 50000

static _Atomic long passed_full;

static void *refuser(void *arg)
{
	for (int i = 0; i < REFUSALS; i++) {
		struct res_counter *fail;

		if (res_counter_charge(&c[DEPTH - 1], 4096, &fail) == 0)
			passed_full++;
	}
	return NULL;
}

/* Threads refused side by side by one full counter: its failcnt is the
 * exact number of refusals (an increment that is not atomic loses some
 * when two CPUs make it at once). */
static void test_failcnt_exact(void **state)
{
	pthread_t t[THREADS];

	make_chain();
	assert_int_equal(res_counter_set_limit(&c[2], 0), 0);
	passed_full = 0;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, refuser, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(passed_full, 0);
	if (c[2].failcnt != (uint64_t)THREADS * REFUSALS)
		fail_msg("failcnt is %llu after %d refusals: %lld lost",
			 (unsigned long long)c[2].failcnt, THREADS * REFUSALS,
			 (long long)THREADS * REFUSALS - (long long)c[2].failcnt);
	for (int i = 0; i < DEPTH; i++)
		assert_int_equal(c[i].usage, 0);
}

/* --- the limit holds at every instant, not only after a charge ----------- */

/*
 * One thread makes charges that must be refused (3 pages where 2 fit);
 * another, meanwhile, charges the 2 pages that fit and gives them back,
 * again and again, and reads the usage between. A charge that adds first
 * and takes it back when it finds the limit passed makes the usage pass
 * the limit for a moment: the second thread then sees it, or is refused
 * although its pages fit. The second thread goes on until its charges
 * have overlapped 100 different refused ones (on one core, each overlap
 * is the refused charge interrupted by the scheduler part way).
 */
#define OVERLAPS 100
#define FIT_ROUNDS_MAX 20000000L

static _Atomic int refusing_stop;
static _Atomic long refusing_inside;  /* the attempt under way, or 0 */
static _Atomic long fit_refused, seen_over, overlaps, too_many;

static void *refused_charger(void *arg)
{
	long n = 0;

	while (!refusing_stop) {
		struct res_counter *fail;

		refusing_inside = ++n;
		if (res_counter_charge(&c[DEPTH - 1], 3 * 4096, &fail) == 0)
			too_many++;  /* 3 pages charged where 2 fit */
		refusing_inside = 0;
	}
	return NULL;
}

static void *fitting_charger(void *arg)
{
	int64_t limit = c[DEPTH - 1].limit;
	long last = 0;

	for (long i = 0; i < FIT_ROUNDS_MAX && overlaps < OVERLAPS; i++) {
		struct res_counter *fail;
		long before = refusing_inside, after;

		if (res_counter_charge(&c[DEPTH - 1], 2 * 4096, &fail) == 0)
			res_counter_uncharge(&c[DEPTH - 1], 2 * 4096);
		else
			fit_refused++;
		if (res_counter_usage(&c[DEPTH - 1]) > limit)
			seen_over++;
		after = refusing_inside;
		if (before && before == after && before != last) {
			overlaps++;
			last = before;
		}
	}
	return NULL;
}

static void test_limit_never_passed(void **state)
{
	pthread_t refusing, fitting;

	make_chain();
	assert_int_equal(res_counter_set_limit(&c[DEPTH - 1], 8 * 4096), 0);
	for (int i = 0; i < 6; i++)
		assert_int_equal(res_counter_charge(&c[DEPTH - 1], 4096,
						    &(struct res_counter *){0}),
				 0);
	refusing_stop = 0;
	refusing_inside = fit_refused = seen_over = overlaps = too_many = 0;
	pthread_create(&refusing, NULL, refused_charger, NULL);
	pthread_create(&fitting, NULL, fitting_charger, NULL);
	pthread_join(fitting, NULL);
	refusing_stop = 1;
	pthread_join(refusing, NULL);
	assert_int_equal(too_many, 0);
	if (fit_refused || seen_over)
		fail_msg("while 3-page charges were refused, 2-page charges "
			 "that fit were refused %ld time(s) and the usage "
			 "was seen above the limit %ld time(s): a refused "
			 "charge passed the limit for a moment",
			 (long)fit_refused, (long)seen_over);
	if (overlaps < OVERLAPS)
		fail_msg("the two threads overlapped %ld times only, in %ld "
			 "rounds (the machine ran them one after the other): "
			 "run the test again", (long)overlaps, FIT_ROUNDS_MAX);
	assert_int_equal(c[DEPTH - 1].usage, 6 * 4096);
	assert_int_equal(c[0].usage, 6 * 4096);
	assert_true(c[DEPTH - 1].max_usage <= 8 * 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_charge_hierarchy),
		cmocka_unit_test(test_rollback_every_level),
		cmocka_unit_test(test_exact_limit),
		cmocka_unit_test(test_charge_quiet_no_failcnt),
		cmocka_unit_test(test_limit_below_usage),
		cmocka_unit_test(test_set_limit_busy),
		cmocka_unit_test(test_resets),
		cmocka_unit_test(test_uncharge_until),
		cmocka_unit_test(test_charge_two),
		cmocka_unit_test(test_charge_two_refused_every_level),
		cmocka_unit_test(test_uncharge_two_underflow),
		cmocka_unit_test(test_uncharge_until_underflow),
		cmocka_unit_test(test_line_transfers),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_failcnt_exact),
		cmocka_unit_test(test_limit_never_passed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
