/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/memcg_test.h - what the host tests of domains share: fake
 * memory, tasks, domains made through /cgroup, and the check that every
 * test ends with (as xv6's usertests bracket each test with countfree).
 *
 * Include after <cmocka.h>. The memory and /cgroup are set up once per
 * program (memcg_test_setup, as a group setup); each test must leave no
 * domain, no task and no charged page behind (memcg_test_teardown
 * asserts it).
 */
#ifndef TESTS_UNIT_MEMCG_TEST_H
#define TESTS_UNIT_MEMCG_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/task/task.h"
#include "mm/buddy.h"
#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcg_check.h"
#include "mm/memcg/memcg_stat.h"
#include "mm/slab.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"
#include "mm/memcg/user_memory.h"
#include "tests/unit/host_mem.h"
#include "tests/unit/host_tasks.h"

#define MEMCG_TEST_RAM (64ul << 20)

static unsigned long memcg_test_free_at_start;

/* assert_check_ok - memcg_check() finds nothing wrong. */
#define assert_check_ok() \
	do { \
		char check_text_[4096]; \
		if (memcg_check(check_text_, sizeof(check_text_)) || \
		    slab_check(check_text_, sizeof(check_text_))) \
			fail_msg("check failed:\n%s", check_text_); \
	} while (0)

static inline int memcg_test_setup(void **state)
{
	(void)state;
	setenv("HOST_QUIET", "1", 0);
	host_mem_init(MEMCG_TEST_RAM);
	if (cgroupfs_init())
		return -1;
	nr_cpus = 4;
	memcg_test_free_at_start = nr_free_pages();
	return 0;
}

/*
 * memcg_test_leaks - every domain but the root, one line each: its path,
 * whether it is dying, its counters' usage and its references; into buf.
 * Returns how many there are.
 */
static inline int memcg_test_leaks(char *buf, size_t size)
{
	struct mem_cgroup *memcg;
	unsigned long flags;
	size_t at = 0;
	int n = 0;

	buf[0] = '\0';
	flags = spin_lock_irqsave(&memcg_list_lock);
	list_for_each_entry(memcg, &memcg_all_list, all_node) {
		char path[128];

		if (memcg == root_mem_cgroup)
			continue;
		n++;
		mem_cgroup_path(memcg, path, sizeof(path));
		if (at < size)
			at += snprintf(buf + at, size - at,
				"  %s%s: res usage %lld, kmem usage %lld, "
				"kmem stocked %lu pages, %d references, "
				"%u tasks\n", path,
				memcg->dying ? " (dying)" : "",
				(long long)res_counter_usage(&memcg->res),
				(long long)res_counter_usage(&memcg->kmem),
				memcg_stock_kmem_pages(memcg),
				memcg->refcnt, memcg->nr_tasks);
	}
	spin_unlock_irqrestore(&memcg_list_lock, flags);
	return n;
}

/* Every test starts and ends on CPU 0, as a task of the root. */
static inline int memcg_test_teardown(void **state)
{
	(void)state;
	host_set_cpu(0);
	host_set_current(NULL);
	host_in_interrupt = false;
	host_oom_wait_hook = NULL;
	host_kill_hook = NULL;
	host_oom_waits = 0;
	host_tasks_killed = 0;
	host_task_unregister_all();
	memcg_stock_set_enabled(true);
	drain_all_stock(NULL);
	{
		char leaks[2048];
		int n = memcg_test_leaks(leaks, sizeof(leaks));

		if (n)
			fail_msg("the test left %d domain(s) behind, the root "
				 "aside:\n%s", n, leaks);
	}
	if (memcg_kmem_enabled_key.enabled)
		fail_msg("memcg_kmem_enabled_key still holds %d reference(s): "
			 "a domain that switched kmem accounting on did not "
			 "give its reference back when it was freed",
			 (int)memcg_kmem_enabled_key.enabled);
	assert_check_ok();
	return 0;
}

/* --- tasks ---------------------------------------------------------------- */

static int memcg_test_next_pid = 100;

/* test_task - a new task in memcg (NULL: the root), findable by PID. */
static inline struct task *test_task(struct mem_cgroup *memcg)
{
	struct task *task = calloc(1, sizeof(*task));

	assert_non_null(task);
	task->pid = memcg_test_next_pid++;
	assert_int_equal(mem_cgroup_attach_task(memcg ? memcg : root_mem_cgroup,
						task), 0);
	host_task_register(task);
	return task;
}

/* test_task_exit - the task exits: its user memory goes, it leaves. */
static inline void test_task_exit(struct task *task)
{
	if (host_current == task)
		host_set_current(NULL);
	mem_cgroup_exit_task(task);
	host_task_unregister(task);
	free(task);
}

/* --- domains, through the control files ----------------------------------- */

static inline void test_write(const char *path, const char *value, int expect)
{
	char why[CTL_WHY_MAX];
	int ret = ctl_write(path, value, why);

	if (ret != expect)
		fail_msg("echo %s > %s: %d (%s), expected %d", value, path, ret,
			 ret ? why : "ok", expect);
}

static inline unsigned long long test_read_u64(const char *path)
{
	char buf[CTL_READ_MAX], why[CTL_WHY_MAX];
	int ret = ctl_read(path, buf, sizeof(buf), why);

	if (ret < 0)
		fail_msg("cat %s: %d (%s)", path, ret, why);
	return strtoull(buf, NULL, 10);
}

/* test_mkdir - mkdir /cgroup/PATH; returns the new domain. */
static inline struct mem_cgroup *test_mkdir(const char *path)
{
	char why[CTL_WHY_MAX];
	struct mem_cgroup *memcg;
	int ret = ctl_mkdir(path, why);

	if (ret)
		fail_msg("mkdir %s: %d (%s)", path, ret, why);
	assert_int_equal(cgroupfs_get_domain(path, &memcg), 0);
	mem_cgroup_put(memcg);
	return memcg;
}

static inline void test_rmdir(const char *path, int expect)
{
	char why[CTL_WHY_MAX];
	int ret = ctl_rmdir(path, why);

	if (ret != expect)
		fail_msg("rmdir %s: %d (%s), expected %d", path, ret,
			 ret ? why : "ok", expect);
}

static inline int64_t usage(struct res_counter *c)
{
	return res_counter_usage(c);
}

/* owned_kmem - memcg's kmem usage less the kernel charge its CPU stocks
 * hold: the bytes of the kernel pages it owns. */
static inline int64_t owned_kmem(struct mem_cgroup *memcg)
{
	return usage(&memcg->kmem) -
	       (int64_t)memcg_stock_kmem_pages(memcg) * 4096;
}

#endif
