// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_pids.c - the pids controller's logic (kernel/cgroup/pids.c)
 * and its files, on the host: forks are the fork path's calls of the
 * controller (can_fork before anything is made, post_fork once the child
 * is in its domain, release when it is reaped), made by hand.
 *
 * What is checked: the files' formats and every bad write's error, with
 * nothing changed; a fork counts at every level or at none; the refusal
 * is EAGAIN, counted in pids.events of the refusing domain and of its
 * ancestors and in pids.events.local of that domain only; the "fork
 * rejected" line once per forking domain; zombies count until reaped; a
 * move carries the count over any limit; a removed domain's count lives
 * until its last zombie is reaped; `check` agrees throughout.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kernel/cgroup/pids.h"
#include "kernel/sched/fork.h"
#include "tests/unit/host_console.h"
#include "tests/unit/host_ctltree.h"
#include "tests/unit/memcg_test.h"

static struct mem_cgroup *A, *B;

/* A and its child B. */
static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	B = test_mkdir("/cgroup/A/B");
	return 0;
}

static int teardown(void **state)
{
	test_rmdir("/cgroup/A/B", 0);
	test_rmdir("/cgroup/A", 0);
	return memcg_test_teardown(state);
}

static const char *read_text(const char *path)
{
	static char buf[CTL_READ_MAX];
	char why[CTL_WHY_MAX];
	int ret = ctl_read(path, buf, sizeof(buf), why);

	if (ret < 0)
		fail_msg("cat %s: %d (%s)", path, ret, why);
	return buf;
}

/* pids_ok - the pids invariant holds (as `check` sees it). */
static void assert_pids_ok(void)
{
	char buf[1024];

	if (pids_check(buf, sizeof(buf)))
		fail_msg("pids_check: %s", buf);
}

/* fork_into - what task_fork and `run` do, around the task's making:
 * count it, make it (a bare struct task), put it in memcg, post_fork.
 * Returns the task, or NULL with the refusal checked to be expect. */
static struct task *fork_into(struct mem_cgroup *memcg, int expect)
{
	struct pids_cgroup *charge = NULL;
	struct task *task;
	int ret = pids_fork_ops.can_fork(NULL, memcg, &charge);

	assert_int_equal(ret, expect);
	if (ret)
		return NULL;
	task = calloc(1, sizeof(*task));
	assert_non_null(task);
	task->pid = memcg_test_next_pid++;
	task->pids = charge;
	assert_int_equal(mem_cgroup_attach_task(memcg, task), 0);
	host_task_register(task);
	pids_fork_ops.post_fork(task);
	return task;
}

/* exit_task - the task exits: a zombie, still counted. */
static void exit_task(struct task *task)
{
	task->exiting = true;
	mem_cgroup_exit_task(task);
}

/* reap - the zombie is reaped (task_release): its count goes. */
static void reap(struct task *task)
{
	if (!task->exiting)
		exit_task(task);
	task->reaped = true;
	pids_fork_ops.release(task);
	host_task_unregister(task);
	free(task);
}

static void test_files_format(void **state)
{
	assert_string_equal(read_text("/cgroup/A/pids.max"), "max\n");
	assert_string_equal(read_text("/cgroup/A/pids.current"), "0\n");
	assert_string_equal(read_text("/cgroup/A/pids.peak"), "0\n");
	assert_string_equal(read_text("/cgroup/A/pids.events"), "max 0\n");
	assert_string_equal(read_text("/cgroup/A/pids.events.local"),
			    "max 0\n");
	test_write("/cgroup/A/pids.max", "0", 0);
	assert_string_equal(read_text("/cgroup/A/pids.max"), "0\n");
	test_write("/cgroup/A/pids.max", "4194304", 0);
	assert_string_equal(read_text("/cgroup/A/pids.max"), "4194304\n");
	test_write("/cgroup/A/pids.max", "0x10", 0);  /* base 0, as Linux */
	assert_string_equal(read_text("/cgroup/A/pids.max"), "16\n");
	test_write("/cgroup/A/pids.max", " 7 ", 0);    /* stripped */
	assert_string_equal(read_text("/cgroup/A/pids.max"), "7\n");
	test_write("/cgroup/A/pids.max", "max", 0);
	assert_string_equal(read_text("/cgroup/A/pids.max"), "max\n");
}

static void test_bad_writes(void **state)
{
	static const char *const einval[] = {
		"-1", "4194305", "abc", "", "1 2", "5k", "0x", "max1",
		"-4194304", "1.5",
	};

	test_write("/cgroup/A/pids.max", "25", 0);
	for (size_t i = 0; i < ARRAY_SIZE(einval); i++) {
		test_write("/cgroup/A/pids.max", einval[i], -EINVAL);
		assert_string_equal(read_text("/cgroup/A/pids.max"), "25\n");
	}
	test_write("/cgroup/A/pids.max", "99999999999999999999", -ERANGE);
	assert_string_equal(read_text("/cgroup/A/pids.max"), "25\n");
	/* The read-only files refuse writes (and stay as they were). */
	test_write("/cgroup/A/pids.current", "5", -EINVAL);
	test_write("/cgroup/A/pids.peak", "0", -EINVAL);
	test_write("/cgroup/A/pids.events", "0", -EINVAL);
	test_write("/cgroup/A/pids.events.local", "0", -EINVAL);
	assert_string_equal(read_text("/cgroup/A/pids.current"), "0\n");
	/* The root has none of them. */
	char buf[64], why[CTL_WHY_MAX];
	assert_int_equal(ctl_read("/cgroup/pids.max", buf, sizeof(buf), why),
			 -ENOENT);
	test_write("/cgroup/A/pids.max", "max", 0);
}

static void test_limit_and_refusal(void **state)
{
	struct task *t[3];

	test_write("/cgroup/A/B/pids.max", "2", 0);
	host_console_capture(true);
	t[0] = fork_into(B, 0);
	t[1] = fork_into(B, 0);
	assert_null(fork_into(B, -EAGAIN));
	assert_null(fork_into(B, -EAGAIN));
	/* One line, the first time, naming the forking domain as Linux
	 * does: from the root of the hierarchy. */
	assert_string_equal(host_console_output(),
			    "cgroup: fork rejected by pids controller in "
			    "/A/B\n");
	host_console_capture(false);
	assert_string_equal(read_text("/cgroup/A/B/pids.current"), "2\n");
	assert_string_equal(read_text("/cgroup/A/pids.current"), "2\n");
	assert_string_equal(read_text("/cgroup/A/B/pids.events"), "max 2\n");
	assert_string_equal(read_text("/cgroup/A/B/pids.events.local"),
			    "max 2\n");
	/* The ancestor counts them in events, not in events.local. */
	assert_string_equal(read_text("/cgroup/A/pids.events"), "max 2\n");
	assert_string_equal(read_text("/cgroup/A/pids.events.local"),
			    "max 0\n");
	assert_pids_ok();

	/* A reaped task makes room again. */
	reap(t[0]);
	assert_string_equal(read_text("/cgroup/A/B/pids.current"), "1\n");
	t[2] = fork_into(B, 0);
	assert_string_equal(read_text("/cgroup/A/B/pids.peak"), "2\n");
	reap(t[1]);
	reap(t[2]);
	assert_string_equal(read_text("/cgroup/A/pids.current"), "0\n");
	assert_string_equal(read_text("/cgroup/A/pids.peak"), "2\n");
	assert_pids_ok();
	test_write("/cgroup/A/B/pids.max", "max", 0);
}

static void test_parent_limit(void **state)
{
	struct task *a, *b;

	/* The parent's limit refuses the child's fork: all or nothing. */
	test_write("/cgroup/A/pids.max", "2", 0);
	a = fork_into(A, 0);
	b = fork_into(B, 0);
	host_console_capture(true);
	assert_null(fork_into(B, -EAGAIN));
	assert_string_equal(host_console_output(),
			    "cgroup: fork rejected by pids controller in "
			    "/A/B\n");
	host_console_capture(false);
	assert_string_equal(read_text("/cgroup/A/B/pids.current"), "1\n");
	assert_string_equal(read_text("/cgroup/A/pids.current"), "2\n");
	/* Counted where the limit was: A (local and hierarchical), not B. */
	assert_string_equal(read_text("/cgroup/A/pids.events"), "max 1\n");
	assert_string_equal(read_text("/cgroup/A/pids.events.local"),
			    "max 1\n");
	assert_string_equal(read_text("/cgroup/A/B/pids.events"), "max 0\n");
	assert_string_equal(read_text("/cgroup/A/B/pids.events.local"),
			    "max 0\n");
	/* A fork in A itself: refused too; A's first refusal prints. */
	host_console_capture(true);
	assert_null(fork_into(A, -EAGAIN));
	assert_null(fork_into(B, -EAGAIN));
	assert_string_equal(host_console_output(),
			    "cgroup: fork rejected by pids controller in "
			    "/A\n");
	host_console_capture(false);
	assert_string_equal(read_text("/cgroup/A/pids.events"), "max 3\n");

	/* A limit below the count is allowed; it only refuses. */
	test_write("/cgroup/A/pids.max", "1", 0);
	assert_string_equal(read_text("/cgroup/A/pids.current"), "2\n");
	reap(a);
	reap(b);
	assert_pids_ok();
	test_write("/cgroup/A/pids.max", "max", 0);
}

static void test_zombies_count(void **state)
{
	struct task *t = fork_into(B, 0);

	exit_task(t);  /* a zombie: out of the domain's task list ... */
	assert_string_equal(read_text("/cgroup/A/B/tasks"), "");
	/* ... but counted until reaped */
	assert_string_equal(read_text("/cgroup/A/B/pids.current"), "1\n");
	assert_pids_ok();
	reap(t);
	assert_string_equal(read_text("/cgroup/A/B/pids.current"), "0\n");
}

static void test_move_ignores_limit(void **state)
{
	struct mem_cgroup *C = test_mkdir("/cgroup/C");
	struct task *t = fork_into(B, 0);
	char pid[16];

	test_write("/cgroup/C/pids.max", "0", 0);
	snprintf(pid, sizeof(pid), "%d", t->pid);
	test_write("/cgroup/C/tasks", pid, 0);
	assert_ptr_equal(t->memcg, C);
	assert_string_equal(read_text("/cgroup/C/pids.current"), "1\n");
	assert_string_equal(read_text("/cgroup/C/pids.events"), "max 0\n");
	assert_string_equal(read_text("/cgroup/A/pids.current"), "0\n");
	assert_string_equal(read_text("/cgroup/A/B/pids.current"), "0\n");
	assert_pids_ok();
	/* To the root: counted nowhere. */
	test_write("/cgroup/tasks", pid, 0);
	assert_string_equal(read_text("/cgroup/C/pids.current"), "0\n");
	assert_null(t->pids);
	reap(t);
	test_rmdir("/cgroup/C", 0);
	assert_pids_ok();
}

static void test_removed_domain_with_zombie(void **state)
{
	struct mem_cgroup *D = test_mkdir("/cgroup/A/D");
	struct task *t = fork_into(D, 0);

	exit_task(t);
	test_rmdir("/cgroup/A/D", 0);  /* zombies only: allowed */
	/* Its parent still counts the zombie, until it is reaped. */
	assert_string_equal(read_text("/cgroup/A/pids.current"), "1\n");
	assert_pids_ok();
	reap(t);
	assert_string_equal(read_text("/cgroup/A/pids.current"), "0\n");
	assert_pids_ok();
}

static void test_root_counts_nobody(void **state)
{
	struct pids_cgroup *charge = (void *)1;

	assert_int_equal(pids_fork_ops.can_fork(NULL, root_mem_cgroup,
						&charge), 0);
	assert_null(charge);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_files_format),
		T(test_bad_writes),
		T(test_limit_and_refusal),
		T(test_parent_limit),
		T(test_zombies_count),
		T(test_move_ignores_limit),
		T(test_removed_domain_with_zombie),
		T(test_root_counts_nobody),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
