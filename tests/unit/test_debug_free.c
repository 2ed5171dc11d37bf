// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_debug_free.c - mm/debug_free.c through the real
 * mm/buddy.c: with debug_check_on_free_key on, a free of a block whose
 * other pages are in use, or whose first page has a domain without
 * PG_kmemcg, panics naming the frame; good frees pass; with the key off
 * nothing is checked. And the control file /proc/sys/debug_check_on_free.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/fs/proc.h"
#include "mm/buddy.h"
#include "mm/debug_free.h"
#include "tests/unit/host_mem.h"

#define MEM_SIZE (16ul << 20)

static int setup(void **state)
{
	host_mem_init(MEM_SIZE);
	debug_check_on_free_key.enabled = 0;
	return 0;
}

static void test_good_frees_pass(void **state)
{
	static_key_slow_inc(&debug_check_on_free_key);
	assert_true(debug_check_on_free());
	for (unsigned int order = 0; order <= MAX_ORDER; order++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);

		assert_non_null(page);
		free_pages(page, order);
	}
	static_key_slow_dec(&debug_check_on_free_key);
	assert_false(debug_check_on_free());
}

static void test_overlapping_block(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	assert_non_null(page);
	page[3].flags = PG_head;  /* as if another block started inside */

	static_key_slow_inc(&debug_check_on_free_key);
	HOST_EXPECT_PANIC(free_pages(page, 2), "blocks overlap");
	assert_non_null(strstr(host_last_panic, "flags 0x10 head"));
	static_key_slow_dec(&debug_check_on_free_key);
}

static void test_domain_without_flag(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	assert_non_null(page);
	page->memcg = (struct mem_cgroup *)page;  /* any non-NULL pointer */
	static_key_slow_inc(&debug_check_on_free_key);
	HOST_EXPECT_PANIC(free_pages(page, 0), "no PG_kmemcg");
	static_key_slow_dec(&debug_check_on_free_key);
}

static void test_off_checks_nothing(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1);

	assert_non_null(page);
	page[1].order = 3;  /* would be caught with the key on */
	assert_false(debug_check_on_free());
	free_pages(page, 1);  /* the key is off: no check, no panic */
}

static void test_control_file(void **state)
{
	char buf[32], why[CTL_WHY_MAX];

	if (ctl_lookup(ctl_root(), "/proc", NULL) < 0 ||
	    ctl_lookup(ctl_root(), "/proc/sys/debug_check_on_free", NULL) < 0) {
		struct ctl_node *proc;

		if (ctl_lookup(ctl_root(), "/proc", &proc) < 0)
			ctl_create_dir(ctl_root(), "proc", NULL, NULL);
		proc_mm_init();
	}
	assert_int_equal(ctl_read("/proc/sys/debug_check_on_free", buf,
				  sizeof(buf), why), 2);
	assert_string_equal(buf, "0\n");
	assert_int_equal(ctl_write("/proc/sys/debug_check_on_free", "1", why), 0);
	assert_int_equal(static_key_count(&debug_check_on_free_key), 1);
	/* Writing 1 again takes no second reference. */
	assert_int_equal(ctl_write("/proc/sys/debug_check_on_free", "1", why), 0);
	assert_int_equal(static_key_count(&debug_check_on_free_key), 1);
	ctl_read("/proc/sys/debug_check_on_free", buf, sizeof(buf), why);
	assert_string_equal(buf, "1\n");
	assert_int_equal(ctl_write("/proc/sys/debug_check_on_free", "yes", why),
			 -EINVAL);
	assert_int_equal(ctl_write("/proc/sys/debug_check_on_free", "0", why), 0);
	assert_int_equal(static_key_count(&debug_check_on_free_key), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_good_frees_pass, setup),
		cmocka_unit_test_setup(test_overlapping_block, setup),
		cmocka_unit_test_setup(test_domain_without_flag, setup),
		cmocka_unit_test_setup(test_off_checks_nothing, setup),
		cmocka_unit_test_setup(test_control_file, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
