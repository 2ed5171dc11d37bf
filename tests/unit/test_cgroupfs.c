// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_cgroupfs.c - the /cgroup control files (docs/interface.md)
 * through the control tree, as the shell uses them: names, what each
 * reads, what each accepts, the errors, and that a failed write changes
 * nothing. Also the `check` command's output.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kernel/shell/shell.h"
#include "tests/unit/host_console.h"
#include "tests/unit/host_ctltree.h"
#include "tests/unit/memcg_test.h"

static struct mem_cgroup *A;

static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	return 0;
}

static int teardown(void **state)
{
	drain_all_stock(NULL);
	test_rmdir("/cgroup/A", 0);
	return memcg_test_teardown(state);
}

/* read_text - the whole text of a file; fails the test on an error. */
static const char *read_text(const char *path)
{
	static char buf[CTL_READ_MAX];
	char why[CTL_WHY_MAX];
	int ret = ctl_read(path, buf, sizeof(buf), why);

	if (ret < 0)
		fail_msg("cat %s: %d (%s)", path, ret, why);
	return buf;
}

static void expect_read_error(const char *path, int err)
{
	char buf[256], why[CTL_WHY_MAX];

	assert_int_equal(ctl_read(path, buf, sizeof(buf), why), err);
}

static const char *const files[] = {
	"memory.usage_in_bytes", "memory.max_usage_in_bytes",
	"memory.limit_in_bytes", "memory.failcnt",
	"memory.kmem.usage_in_bytes", "memory.kmem.max_usage_in_bytes",
	"memory.kmem.limit_in_bytes", "memory.kmem.failcnt",
	"memory.use_hierarchy", "memory.force_empty", "memory.oom_control",
	"memory.stat", "tasks", "cgroup.kill",
};

/* The pids controller's, after those, in every domain but the root. */
static const char *const pids_files_listed[] = {
	"pids.current", "pids.events", "pids.events.local", "pids.max",
	"pids.peak",
};

static void test_listing(void **state)
{
	char buf[2048], why[CTL_WHY_MAX], expect[2048] = "";

	char root[2048];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		strcat(expect, files[i]);
		strcat(expect, "\n");
	}
	strcpy(root, expect);
	for (size_t i = 0; i < ARRAY_SIZE(pids_files_listed); i++) {
		strcat(expect, pids_files_listed[i]);
		strcat(expect, "\n");
	}
	assert_true(host_ctl_list("/cgroup/A", buf, sizeof(buf), why) > 0);
	assert_string_equal(buf, expect);
	strcpy(expect, root);
	strcat(expect, "cgroup.stat\nA\n");
	assert_true(host_ctl_list("/cgroup", buf, sizeof(buf), why) > 0);
	assert_string_equal(buf, expect);
}

static void test_initial_values(void **state)
{
	assert_string_equal(read_text("/cgroup/A/memory.usage_in_bytes"), "0\n");
	assert_string_equal(read_text("/cgroup/A/memory.limit_in_bytes"),
			    "9223372036854775807\n");
	assert_string_equal(read_text("/cgroup/A/memory.kmem.limit_in_bytes"),
			    "9223372036854775807\n");
	assert_string_equal(read_text("/cgroup/A/memory.failcnt"), "0\n");
	assert_string_equal(read_text("/cgroup/A/memory.use_hierarchy"), "0\n");
	assert_string_equal(read_text("/cgroup/A/memory.oom_control"),
			    "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n");
	assert_string_equal(read_text("/cgroup/A/tasks"), "");
	assert_string_equal(read_text("/cgroup/cgroup.stat"),
			    "nr_domains 2\nnr_dying_descendants 0\n");
	assert_string_equal(read_text("/cgroup/A/memory.stat"),
			    "cache 0\nrss 0\nkmem 0\nkernel_stack 0\nslab 0\n"
			    "stock 0\n"
			    "hierarchical_memory_limit 9223372036854775807\n"
			    "hierarchical_kmem_limit 9223372036854775807\n"
			    "total_cache 0\ntotal_rss 0\ntotal_kmem 0\n"
			    "total_kernel_stack 0\ntotal_slab 0\ntotal_stock 0\n");
	expect_read_error("/cgroup/A/memory.force_empty", -EINVAL);
	expect_read_error("/cgroup/A/cgroup.kill", -EINVAL);
	expect_read_error("/cgroup/A/cgroup.stat", -ENOENT);
}

static void test_limit_syntax(void **state)
{
	static const struct {
		const char *in;
		unsigned long long out;
	} good[] = {
		{"1M", 1048576}, {"4097", 8192}, {"0x1000", 4096}, {"64k", 65536},
		{"1g", 1073741824}, {"1", 4096}, {"0", 0},
		{"-1", 9223372036854775807ull},
		{"9223372036854775807", 9223372036854775807ull},
	};
	static const char *const bad[] = {
		"1.0", "1xx", "xx", "", "-2", "99999999999999999999", "1kk",
		" 1", "1T", "-0x1",
	};
	const char *f = "/cgroup/A/memory.limit_in_bytes";

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		test_write(f, good[i].in, 0);
		assert_true(test_read_u64(f) == good[i].out);
	}
	test_write(f, "8M", 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		test_write(f, bad[i], -EINVAL);
		assert_int_equal(test_read_u64(f), 8 << 20);  /* unchanged */
		test_write("/cgroup/A/memory.kmem.limit_in_bytes", bad[i],
			   -EINVAL);
	}
	assert_true(test_read_u64("/cgroup/A/memory.kmem.limit_in_bytes") ==
		    9223372036854775807ull);
	assert_int_equal(memcg_kmem_enabled_key.enabled, 0);
	test_write(f, "-1", 0);
}

static void test_read_only_and_resets(void **state)
{
	struct task *t = test_task(A);
	struct page *p;

	test_write("/cgroup/A/memory.usage_in_bytes", "0", -EINVAL);
	test_write("/cgroup/A/memory.kmem.usage_in_bytes", "0", -EINVAL);
	test_write("/cgroup/A/memory.stat", "0", -EINVAL);

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "8K", 0);
	host_set_current(t);
	p = alloc_pages(GFP_ACCOUNT, 0);
	assert_null(alloc_pages(GFP_ACCOUNT | __GFP_NOWARN, 1));
	free_accounted_pages(p, 0);
	host_set_current(NULL);
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.failcnt"), 1);
	assert_int_equal(
		test_read_u64("/cgroup/A/memory.kmem.max_usage_in_bytes"), 4096);
	test_write("/cgroup/A/memory.kmem.failcnt", "1", -EINVAL);
	test_write("/cgroup/A/memory.kmem.failcnt", "x", -EINVAL);
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.failcnt"), 1);
	test_write("/cgroup/A/memory.kmem.failcnt", "0", 0);
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.failcnt"), 0);
	test_write("/cgroup/A/memory.kmem.max_usage_in_bytes", "0", 0);
	assert_int_equal(
		test_read_u64("/cgroup/A/memory.kmem.max_usage_in_bytes"), 0);
	assert_true(test_read_u64("/cgroup/A/memory.max_usage_in_bytes") > 0);
	test_write("/cgroup/A/memory.max_usage_in_bytes", "0", 0);
	drain_all_stock(NULL);
	test_write("/cgroup/A/memory.max_usage_in_bytes", "0", 0);
	assert_int_equal(test_read_u64("/cgroup/A/memory.max_usage_in_bytes"),
			 0);
	test_task_exit(t);
}

/* The root: never charged, reports the machine, its limits are fixed. */
static void test_root(void **state)
{
	unsigned long long used = test_read_u64("/cgroup/memory.usage_in_bytes");

	assert_true(used > 0);
	assert_true(used <= MEMCG_TEST_RAM);
	assert_true(test_read_u64("/cgroup/memory.kmem.usage_in_bytes") <= used);
	test_write("/cgroup/memory.limit_in_bytes", "1M", -EINVAL);
	test_write("/cgroup/memory.kmem.limit_in_bytes", "1M", -EINVAL);
	test_write("/cgroup/memory.limit_in_bytes", "-1", -EINVAL);
	test_write("/cgroup/memory.force_empty", "1", -EINVAL);
	test_write("/cgroup/memory.oom_control", "1", -EINVAL);
	test_write("/cgroup/memory.failcnt", "0", 0);
	test_write("/cgroup/memory.max_usage_in_bytes", "0", 0);
	assert_true(test_read_u64("/cgroup/memory.limit_in_bytes") ==
		    9223372036854775807ull);
	test_rmdir("/cgroup", -EBUSY);
}

static void test_kmem_limit_below_usage(void **state)
{
	struct task *t = test_task(A);
	struct page *p;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	host_set_current(t);
	p = alloc_pages(GFP_ACCOUNT, 2);
	host_set_current(NULL);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "8K", -EBUSY);
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.limit_in_bytes"),
			 1 << 20);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "16K", 0);
	free_accounted_pages(p, 2);
	test_task_exit(t);
}

static void test_use_hierarchy_file(void **state)
{
	test_write("/cgroup/A/memory.use_hierarchy", "2", -EINVAL);
	test_write("/cgroup/A/memory.use_hierarchy", "yes", -EINVAL);
	test_write("/cgroup/A/memory.use_hierarchy", "1", 0);
	assert_string_equal(read_text("/cgroup/A/memory.use_hierarchy"), "1\n");
	test_mkdir("/cgroup/A/B");
	assert_string_equal(read_text("/cgroup/A/B/memory.use_hierarchy"),
			    "1\n");
	test_write("/cgroup/A/memory.use_hierarchy", "0", -EBUSY);
	test_write("/cgroup/A/B/memory.use_hierarchy", "0", -EINVAL);
	test_write("/cgroup/A/B/memory.use_hierarchy", "1", 0);
	test_rmdir("/cgroup/A", -EBUSY);
	test_write("/cgroup/A/memory.force_empty", "1", -EBUSY);
	test_rmdir("/cgroup/A/B", 0);
	test_write("/cgroup/A/memory.use_hierarchy", "0", 0);
}

static void test_tasks_file(void **state)
{
	struct task *t1 = test_task(NULL), *t2 = test_task(NULL);
	struct task *sys = test_task(NULL);
	char pid[16], expect[64];

	sys->flags |= TASK_SYSTEM;
	snprintf(pid, sizeof(pid), "%d", t2->pid);
	test_write("/cgroup/A/tasks", pid, 0);
	snprintf(pid, sizeof(pid), "%d", t1->pid);
	test_write("/cgroup/A/tasks", pid, 0);
	test_write("/cgroup/A/tasks", pid, 0);  /* already there */
	snprintf(expect, sizeof(expect), "%d\n%d\n", t1->pid, t2->pid);
	assert_string_equal(read_text("/cgroup/A/tasks"), expect);
	assert_ptr_equal(t1->memcg, A);

	test_write("/cgroup/A/tasks", "abc", -EINVAL);
	test_write("/cgroup/A/tasks", "-5", -EINVAL);
	test_write("/cgroup/A/tasks", "", -EINVAL);
	test_write("/cgroup/A/tasks", "77777", -ESRCH);
	snprintf(pid, sizeof(pid), "%d", sys->pid);
	test_write("/cgroup/A/tasks", pid, -EINVAL);
	assert_ptr_equal(sys->memcg, root_mem_cgroup);

	test_rmdir("/cgroup/A", -EBUSY);
	test_write("/cgroup/A/memory.force_empty", "1", -EBUSY);

	test_write("/cgroup/A/cgroup.kill", "0", -EINVAL);
	test_write("/cgroup/A/cgroup.kill", "yes", -EINVAL);
	assert_false(host_task_killed(t1));
	test_write("/cgroup/A/cgroup.kill", "1", 0);
	assert_true(host_task_killed(t1) && host_task_killed(t2));
	assert_false(host_task_killed(sys));

	/* Back to the root, and the domain can go. */
	snprintf(pid, sizeof(pid), "%d", t1->pid);
	test_write("/cgroup/tasks", pid, 0);
	snprintf(pid, sizeof(pid), "%d", t2->pid);
	test_write("/cgroup/tasks", pid, 0);
	assert_string_equal(read_text("/cgroup/A/tasks"), "");
	sys->flags &= ~TASK_SYSTEM;
	test_task_exit(sys);
	test_task_exit(t1);
	test_task_exit(t2);
}

static void test_oom_control_file(void **state)
{
	test_write("/cgroup/A/memory.oom_control", "1", 0);
	assert_string_equal(read_text("/cgroup/A/memory.oom_control"),
			    "oom_kill_disable 1\nunder_oom 0\noom_kill 0\n");
	test_write("/cgroup/A/memory.oom_control", "2", -EINVAL);
	assert_string_equal(read_text("/cgroup/A/memory.oom_control"),
			    "oom_kill_disable 1\nunder_oom 0\noom_kill 0\n");
	test_write("/cgroup/A/memory.oom_control", "0", 0);
}

static void test_mkdir_rmdir(void **state)
{
	char why[CTL_WHY_MAX];

	assert_int_equal(ctl_mkdir("/cgroup/A", why), -EEXIST);
	assert_int_equal(ctl_mkdir("/cgroup/A/tasks", why), -EEXIST);
	assert_int_equal(ctl_mkdir("/cgroup/nope/x", why), -ENOENT);
	assert_int_equal(ctl_rmdir("/cgroup/A/tasks", why), -ENOTDIR);
	test_mkdir("/cgroup/A/B");
	test_mkdir("/cgroup/A/B/C");
	assert_string_equal(read_text("/cgroup/cgroup.stat"),
			    "nr_domains 4\nnr_dying_descendants 0\n");
	test_rmdir("/cgroup/A/B", -EBUSY);
	assert_int_equal(ctl_rmdir("/cgroup/A/B", why), -EBUSY);
	assert_string_equal(why, "the domain has children");
	test_rmdir("/cgroup/A/B/C", 0);
	test_rmdir("/cgroup/A/B", 0);
	assert_int_equal(ctl_read("/cgroup/A/B/tasks", (char[8]){0}, 8, why),
			 -ENOENT);

	struct mem_cgroup *memcg;
	assert_int_equal(cgroupfs_get_domain("/cgroup", &memcg), 0);
	assert_ptr_equal(memcg, root_mem_cgroup);
	mem_cgroup_put(memcg);
	assert_int_equal(cgroupfs_get_domain("/cgroup/A/tasks", &memcg),
			 -ENOTDIR);
	assert_int_equal(cgroupfs_get_domain("/cgroup/Z", &memcg), -ENOENT);
}

/* The shell's view: error lines, and `check`. */
static void test_shell(void **state)
{
	char line[128];

	host_console_capture(true);
	strcpy(line, "echo 1.0 > /cgroup/A/memory.limit_in_bytes");
	assert_int_equal(shell_execute(line), -EINVAL);
	assert_non_null(strstr(host_console_output(), "error: EINVAL: "));
	host_console_capture(true);
	strcpy(line, "check");
	assert_int_equal(shell_execute(line), 0);
	assert_string_equal(host_console_output(), "check: ok\n");

	/* Break an invariant, and check says so. */
	A->nr_rss = 1;
	host_console_capture(true);
	strcpy(line, "check");
	shell_execute(line);
	assert_non_null(strstr(host_console_output(),
			       "check: FAIL /cgroup/A: counts 1 user pages"));
	A->nr_rss = 0;
	host_console_capture(false);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_listing),
		T(test_initial_values),
		T(test_limit_syntax),
		T(test_read_only_and_resets),
		T(test_root),
		T(test_kmem_limit_below_usage),
		T(test_use_hierarchy_file),
		T(test_tasks_file),
		T(test_oom_control_file),
		T(test_mkdir_rmdir),
		T(test_shell),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
