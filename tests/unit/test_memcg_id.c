// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_memcg_id.c - mm/memcg/memcg_id.c: every id from 1 to
 * 65535 is handed out once, lowest first, then -ENOSPC; an id given back
 * is the next one handed out, across the words of the bitmap; giving an
 * id back twice, or one that is no id, panics naming it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mm/memcg/memcg_id.h"
#include "tests/unit/host_mem.h"
#include "tests/unit/host_platform.h"

static void test_all_then_enospc(void **state)
{
	for (int id = 1; id <= MEM_CGROUP_ID_MAX; id++)
		assert_int_equal(memcg_id_alloc(), id);
	assert_int_equal(memcg_id_alloc(), -ENOSPC);
	assert_int_equal(memcg_id_alloc(), -ENOSPC);
	for (int id = 1; id <= MEM_CGROUP_ID_MAX; id++)
		memcg_id_free(id);
}

static void test_reuse_lowest(void **state)
{
	int ids[300];

	for (int i = 0; i < 300; i++)
		ids[i] = memcg_id_alloc();
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[299], 300);
	/* 200 is in the fourth word, 70 in the second: the lowest first. */
	memcg_id_free(200);
	memcg_id_free(70);
	assert_int_equal(memcg_id_alloc(), 70);
	assert_int_equal(memcg_id_alloc(), 200);
	assert_int_equal(memcg_id_alloc(), 301);
	for (int id = 1; id <= 301; id++)
		memcg_id_free(id);
	assert_int_equal(memcg_id_alloc(), 1);
	memcg_id_free(1);
}

static void test_full_word_then_free(void **state)
{
	/* Fill to the end, free one in a full word, get exactly it back. */
	for (int id = 1; id <= MEM_CGROUP_ID_MAX; id++)
		memcg_id_alloc();
	memcg_id_free(40000);
	assert_int_equal(memcg_id_alloc(), 40000);
	assert_int_equal(memcg_id_alloc(), -ENOSPC);
	for (int id = 1; id <= MEM_CGROUP_ID_MAX; id++)
		memcg_id_free(id);
}

/* Last: a panic leaves the ids' lock held. */
static void test_bad_free_panics(void **state)
{
	HOST_EXPECT_PANIC(memcg_id_free(0), "id 0");
	HOST_EXPECT_PANIC(memcg_id_free(MEM_CGROUP_ID_MAX + 1), "id 65536");
	HOST_EXPECT_PANIC(memcg_id_free(5), "given back twice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_then_enospc),
		cmocka_unit_test(test_reuse_lowest),
		cmocka_unit_test(test_full_word_then_free),
		cmocka_unit_test(test_bad_free_panics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
