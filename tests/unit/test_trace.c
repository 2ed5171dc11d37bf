// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_trace.c - the pure logic of the tracer: the per-CPU ring
 * (kernel/trace/trace_ring.c: overwriting the oldest entry and counting it
 * lost, reading by position, a reader overtaken by the writer, consuming,
 * clearing) and the words of set_event (kernel/trace/trace_set_event.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/trace/trace_ring.h"
#include "kernel/trace/trace_set_event.h"

#define SIZE 8

static struct trace_entry slots[SIZE];

/* put - record an entry whose timestamp is ts. */
static void put(struct trace_ring *r, uint64_t ts)
{
	struct trace_entry *e = trace_ring_reserve(r);

	assert_non_null(e);
	e->ts = ts;
}

static void test_ring_fill_and_read(void **state)
{
	struct trace_ring r;
	struct trace_entry e;
	uint64_t pos = 0;

	trace_ring_init(&r, slots, SIZE);
	assert_false(trace_ring_peek(&r, &pos, &e));
	for (uint64_t i = 1; i <= 5; i++)
		put(&r, i);
	assert_int_equal(trace_ring_entries(&r), 5);
	assert_int_equal(r.lost, 0);
	for (uint64_t i = 1; i <= 5; i++) {
		assert_true(trace_ring_peek(&r, &pos, &e));
		assert_int_equal(e.ts, i);
		pos++;
	}
	assert_false(trace_ring_peek(&r, &pos, &e));
	assert_int_equal(trace_ring_entries(&r), 5);  /* peek consumes nothing */
}

static void test_ring_overwrites_oldest(void **state)
{
	struct trace_ring r;
	struct trace_entry e;
	uint64_t pos = 0;

	trace_ring_init(&r, slots, SIZE);
	for (uint64_t i = 1; i <= SIZE + 3; i++)
		put(&r, i);
	assert_int_equal(trace_ring_entries(&r), SIZE);
	assert_int_equal(r.written, SIZE + 3);
	assert_int_equal(r.lost, 3);
	assert_int_equal(r.written - trace_ring_entries(&r), r.lost);
	/* A reader from 0 starts at the oldest entry left: 4. */
	assert_true(trace_ring_peek(&r, &pos, &e));
	assert_int_equal(e.ts, 4);
	assert_int_equal(pos, 3);
}

static void test_ring_reader_overtaken(void **state)
{
	struct trace_ring r;
	struct trace_entry e;
	uint64_t pos = 0;

	trace_ring_init(&r, slots, SIZE);
	put(&r, 1);
	put(&r, 2);
	assert_true(trace_ring_peek(&r, &pos, &e));
	pos++;
	/* The writer laps the reader, which is at entry 1. */
	for (uint64_t i = 3; i <= 20; i++)
		put(&r, i);
	assert_true(trace_ring_peek(&r, &pos, &e));
	assert_int_equal(e.ts, 20 - SIZE + 1);
	assert_int_equal(r.lost, 20 - SIZE);
}

static void test_ring_consume_and_clear(void **state)
{
	struct trace_ring r;
	struct trace_entry e;
	uint64_t pos = 0;

	trace_ring_init(&r, slots, SIZE);
	for (uint64_t i = 1; i <= SIZE + 2; i++)
		put(&r, i);
	assert_true(trace_ring_consume(&r, &e));
	assert_int_equal(e.ts, 3);
	assert_int_equal(trace_ring_entries(&r), SIZE - 1);
	/* A consumed entry is not lost: lost counts only overwriting. */
	assert_int_equal(r.lost, 2);
	trace_ring_clear(&r);
	assert_int_equal(trace_ring_entries(&r), 0);
	assert_int_equal(r.lost, 0);
	assert_int_equal(r.written, 0);
	assert_false(trace_ring_consume(&r, &e));
	assert_false(trace_ring_peek(&r, &pos, &e));
	put(&r, 99);
	assert_true(trace_ring_peek(&r, &pos, &e));
	assert_int_equal(e.ts, 99);
	assert_int_equal(r.written, 1);
}

static void test_ring_without_slots(void **state)
{
	struct trace_ring r;

	trace_ring_init(&r, NULL, 0);
	assert_null(trace_ring_reserve(&r));
}

/* --- set_event ---------------------------------------------------------------- */

static const char *const systems[] = {"kmem", "memcg", "memcg", "task"};
static const char *const names[] = {"mm_page_alloc", "memcg_stock_consume",
				    "res_counter_charge", "task_fork_refused"};
#define N 4

struct set_case {
	const char *value;
	int ret;
	uint64_t on, off;
};

static const struct set_case set_cases[] = {
	{"mm_page_alloc", 0, 0x1, 0},
	{"kmem:mm_page_alloc", 0, 0x1, 0},
	{"!mm_page_alloc", 0, 0, 0x1},
	{"!kmem:mm_page_alloc", 0, 0, 0x1},
	{"*:*", 0, 0xf, 0},
	{"*", 0, 0xf, 0},
	{"!*:*", 0, 0, 0xf},
	{"memcg:*", 0, 0x6, 0},
	{"memcg:", 0, 0x6, 0},
	{"*:task_fork_refused", 0, 0x8, 0},
	{"", 0, 0, 0xf},                      /* echo > set_event: all off */
	{"   ", 0, 0, 0xf},
	{"mm_page_alloc task_fork_refused", 0, 0x9, 0},
	{"*:* !memcg:*", 0, 0x9, 0x6},       /* in order: later words win */
	{"!mm_page_alloc mm_page_alloc", 0, 0x1, 0},
	{"nosuch", -EINVAL, 0, 0},
	{"mm_page_alloc nosuch", -EINVAL, 0, 0},  /* nothing half done */
	{"memcg:mm_page_alloc", -EINVAL, 0, 0},   /* wrong system */
	{"nosys:*", -EINVAL, 0, 0},
	{"!", -EINVAL, 0, 0},
	{"!!mm_page_alloc", -EINVAL, 0, 0},
	{":", -EINVAL, 0, 0},
	{"mm_page_allo", -EINVAL, 0, 0},
	{"mm_page_alloc:", -EINVAL, 0, 0},
};

static void test_set_event_table(void **state)
{
	for (size_t i = 0; i < sizeof(set_cases) / sizeof(set_cases[0]); i++) {
		const struct set_case *c = &set_cases[i];
		uint64_t on = 99, off = 99;
		char bad[TRACE_WORD_MAX] = "";
		int ret = trace_set_event_parse(c->value, systems, names, N, &on,
						&off, bad);

		if (ret != c->ret || on != c->on || off != c->off)
			fail_msg("set_event \"%s\": ret %d on %#llx off %#llx, "
				 "expected %d %#llx %#llx", c->value, ret,
				 (unsigned long long)on, (unsigned long long)off,
				 c->ret, (unsigned long long)c->on,
				 (unsigned long long)c->off);
	}
}

static void test_set_event_names_the_bad_word(void **state)
{
	uint64_t on, off;
	char bad[TRACE_WORD_MAX];
	char long_word[200];

	assert_int_equal(trace_set_event_parse("mm_page_alloc bogus x", systems,
					       names, N, &on, &off, bad),
			 -EINVAL);
	assert_string_equal(bad, "bogus");
	memset(long_word, 'a', sizeof(long_word) - 1);
	long_word[sizeof(long_word) - 1] = '\0';
	assert_int_equal(trace_set_event_parse(long_word, systems, names, N,
					       &on, &off, bad),
			 -EINVAL);
	assert_int_equal(strlen(bad), TRACE_WORD_MAX - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_fill_and_read),
		cmocka_unit_test(test_ring_overwrites_oldest),
		cmocka_unit_test(test_ring_reader_overtaken),
		cmocka_unit_test(test_ring_consume_and_clear),
		cmocka_unit_test(test_ring_without_slots),
		cmocka_unit_test(test_set_event_table),
		cmocka_unit_test(test_set_event_names_the_bad_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
