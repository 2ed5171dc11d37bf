// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_charge.c - libFuzzer target for domains and charging:
 * the input is a program of small operations - mkdir, rmdir, limits,
 * use_hierarchy, kernel allocations on several CPUs, user memory (with
 * reclaim and the OOM killer), task moves, forks, exits, force_empty,
 * cgroup.kill - and after every one of them memcg_check() must find every
 * accounting invariant intact. At the end everything is undone, and no
 * domain, charge or page may be left behind.
 *
 *   make build/fuzz/fuzz_charge && build/fuzz/fuzz_charge -max_total_time=60
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cgroup/cgroupfs.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/task/task.h"
#include "mm/buddy.h"
#include "mm/fail_page.h"
#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcg_check.h"
#include "mm/memcg/memcg_stat.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"
#include "mm/memcg/user_memory.h"
#include "tests/unit/host_console.h"
#include "tests/unit/host_mem.h"
#include "tests/unit/host_tasks.h"

#define NR_SLOTS 8   /* domains; slot 0 is the root */
#define NR_TASKS 6
#define NR_ALLOCS 64
#define FUZZ_CPUS 3

struct slot {
	bool used;
	int parent;
	char path[CTL_PATH_MAX];
};

static struct slot slots[NR_SLOTS];
static struct task *tasks[NR_TASKS];
static struct {
	struct page *page;
	unsigned int order;
} allocs[NR_ALLOCS];
static int next_pid = 1;

static const uint8_t *in;
static size_t in_len;

static unsigned int next(unsigned int bound)
{
	unsigned int v;

	if (in_len == 0)
		return 0;
	v = *in++;
	in_len--;
	return bound ? v % bound : v;
}

static void die_check(const char *after)
{
	char text[4096];

	if (memcg_check(text, sizeof(text))) {
		fprintf(stderr, "fuzz_charge: check failed after %s:\n%s",
			after, text);
		abort();
	}
}

static void expect(bool cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_charge: %s\n", what);
		abort();
	}
}

static struct mem_cgroup *slot_memcg(int s)
{
	struct mem_cgroup *memcg;

	if (cgroupfs_get_domain(slots[s].path, &memcg))
		abort();
	mem_cgroup_put(memcg);  /* the tree keeps it */
	return memcg;
}

static struct task *new_task(struct mem_cgroup *memcg)
{
	struct task *task = calloc(1, sizeof(*task));

	task->pid = next_pid++;
	if (mem_cgroup_attach_task(memcg, task))
		abort();
	host_task_register(task);
	return task;
}

static void task_gone(int i)
{
	mem_cgroup_exit_task(tasks[i]);
	host_task_unregister(tasks[i]);
	free(tasks[i]);
	tasks[i] = NULL;
}

/* reap - killed tasks exit; a new one takes each place, in the root. */
static void reap(void)
{
	for (int i = 0; i < NR_TASKS; i++) {
		if (tasks[i] && host_task_killed(tasks[i])) {
			task_gone(i);
			tasks[i] = new_task(root_mem_cgroup);
		}
	}
}

static int oom_waits_this_op;

/* While a task waits in an OOM, the killed tasks exit (their place is
 * taken after the operation, by reap); a wait that goes on lets the OOM
 * killer back in. */
static void oom_wait_hook(void)
{
	for (int i = 0; i < NR_TASKS; i++)
		if (tasks[i] && host_task_killed(tasks[i]) &&
		    tasks[i] != host_current)
			mem_cgroup_exit_task(tasks[i]);
	if (++oom_waits_this_op > 2)
		for (int s = 1; s < NR_SLOTS; s++)
			if (slots[s].used)
				mem_cgroup_set_oom_kill_disable(slot_memcg(s),
								false);
}

static const char *const sizes[] = {
	"-1", "0", "4K", "40K", "128K", "200K", "1M", "4097", "16K", "bad",
};

static int live_slot(void)
{
	int s = next(NR_SLOTS);

	for (int i = 0; i < NR_SLOTS; i++, s = (s + 1) % NR_SLOTS)
		if (slots[s].used)
			return s;
	return 0;
}

static bool has_children(int s)
{
	for (int i = 1; i < NR_SLOTS; i++)
		if (slots[i].used && slots[i].parent == s)
			return true;
	return false;
}

static void op_mkdir(void)
{
	int parent = live_slot();
	char path[CTL_PATH_MAX], why[CTL_WHY_MAX];

	for (int s = 1; s < NR_SLOTS; s++) {
		if (slots[s].used)
			continue;
		/* Through a copy: gcc cannot see that parent is not s. */
		snprintf(path, sizeof(path), "%s/d%d", slots[parent].path, s);
		if (strlen(path) > 200)
			return;
		strcpy(slots[s].path, path);
		expect(ctl_mkdir(slots[s].path, why) == 0, "mkdir failed");
		slots[s].used = true;
		slots[s].parent = parent;
		return;
	}
}

static void op_rmdir(void)
{
	int s = live_slot();
	char why[CTL_WHY_MAX];
	bool busy;
	int ret;

	if (s == 0)
		return;
	busy = has_children(s) || slot_memcg(s)->nr_tasks;
	ret = ctl_rmdir(slots[s].path, why);
	expect(ret == (busy ? -EBUSY : 0), "rmdir: wrong answer");
	if (ret == 0)
		slots[s].used = false;
}

static void op_limit(bool kmem)
{
	int s = live_slot();
	char path[CTL_PATH_MAX + 32], before[64], after[64], why[CTL_WHY_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/memory.%slimit_in_bytes",
		 slots[s].path, kmem ? "kmem." : "");
	ctl_read(path, before, sizeof(before), why);
	ret = ctl_write(path, sizes[next(ARRAY_SIZE(sizes))], why);
	ctl_read(path, after, sizeof(after), why);
	expect(ret == 0 || ret == -EINVAL || ret == -EBUSY, "limit: errno");
	expect(s != 0 || ret == -EINVAL, "root limit accepted");
	if (ret)
		expect(strcmp(before, after) == 0, "failed write changed it");
}

static void op_simple_write(const char *file, const char *value)
{
	int s = live_slot();
	char path[CTL_PATH_MAX + 32], why[CTL_WHY_MAX];

	snprintf(path, sizeof(path), "%s/%s", slots[s].path, file);
	ctl_write(path, value, why);
}

static struct task *pick_task(void)
{
	struct task *task = tasks[next(NR_TASKS)];

	host_set_cpu(next(FUZZ_CPUS));
	host_set_current(task);
	return task;
}

static void op_kmem_alloc(void)
{
	unsigned int order = next(4);
	gfp_t gfp = GFP_ACCOUNT | __GFP_NOWARN;
	int i;

	pick_task();
	switch (next(8)) {
	case 0:
		gfp |= __GFP_NOFAIL;
		break;
	case 1:
		gfp |= __GFP_ATOMIC;
		host_in_interrupt = true;
		break;
	case 2:
		gfp = GFP_KERNEL;
		break;
	}
	for (i = 0; i < NR_ALLOCS && allocs[i].page; i++)
		;
	if (i < NR_ALLOCS) {
		/* Sometimes by fault injection (mm/fail_page.c) the page is
		 * refused after the charge: the charge must be given back
		 * (die_check after the operation), and a __GFP_NOFAIL
		 * allocation is never refused. */
		bool inject = next(4) == 0;

		if (inject)
			fail_page_set(1);
		allocs[i].page = alloc_pages(gfp, order);
		allocs[i].order = order;
		if (inject) {
			fail_page_set(0);
			expect(!allocs[i].page == !(gfp & __GFP_NOFAIL),
			       "fault injection: NULL for NOFAIL, or a page "
			       "for another");
		}
	}
	host_in_interrupt = false;
}

static void op_kmem_free(void)
{
	int i = next(NR_ALLOCS);

	host_set_cpu(next(FUZZ_CPUS));
	for (int n = 0; n < NR_ALLOCS; n++, i = (i + 1) % NR_ALLOCS) {
		if (allocs[i].page) {
			free_accounted_pages(allocs[i].page, allocs[i].order);
			allocs[i].page = NULL;
			return;
		}
	}
}

static void op_user_alloc(void)
{
	struct task *task = pick_task();
	enum user_page_kind kind = next(2) ? USER_CACHE : USER_RSS;
	int ret;

	oom_waits_this_op = 0;
	ret = user_memory_alloc(1 + next(12), kind);
	expect(ret == 0 || ret == -ENOMEM, "user_memory_alloc: errno");
	expect(ret == 0 || host_task_killed(task) ||
		       (task->memcg && !mem_cgroup_is_root(task->memcg)),
	       "user memory refused in the root");
}

static void op_move(void)
{
	struct task *task = tasks[next(NR_TASKS)];
	int s = live_slot();
	char path[CTL_PATH_MAX + 16], pid[16], why[CTL_WHY_MAX];

	snprintf(path, sizeof(path), "%s/tasks", slots[s].path);
	snprintf(pid, sizeof(pid), "%d", task->pid);
	expect(ctl_write(path, pid, why) == 0, "move failed");
	expect(task->memcg == slot_memcg(s), "moved to the wrong domain");
}

static void op_exit(void)
{
	int i = next(NR_TASKS);
	struct mem_cgroup *memcg = tasks[i]->memcg;

	mem_cgroup_get(memcg);
	task_gone(i);
	tasks[i] = new_task(memcg->dying ? root_mem_cgroup : memcg);
	mem_cgroup_put(memcg);
}

static void op_fork(void)
{
	int parent = next(NR_TASKS), child = next(NR_TASKS);
	struct task *task;

	if (parent == child)
		return;
	task_gone(child);
	task = calloc(1, sizeof(*task));
	task->pid = next_pid++;
	host_task_register(task);
	mem_cgroup_fork_task(tasks[parent], task);
	expect(task->memcg == tasks[parent]->memcg, "fork: wrong domain");
	tasks[child] = task;
}

static void op_read(void)
{
	static char buf[CTL_READ_MAX];
	static const char *const files[] = {
		"memory.stat", "tasks", "memory.usage_in_bytes",
		"memory.kmem.usage_in_bytes", "memory.oom_control",
		"memory.max_usage_in_bytes",
	};
	int s = live_slot();
	char path[CTL_PATH_MAX + 32], why[CTL_WHY_MAX];

	snprintf(path, sizeof(path), "%s/%s", slots[s].path,
		 files[next(ARRAY_SIZE(files))]);
	expect(ctl_read(path, buf, sizeof(buf), why) >= 0, "read failed");
	ctl_read("/cgroup/cgroup.stat", buf, sizeof(buf), why);
}

static void run_op(unsigned int op)
{
	static const char *const flags[] = {"0", "1", "2", ""};

	switch (op) {
	case 0: op_mkdir(); break;
	case 1: op_rmdir(); break;
	case 2: op_limit(false); break;
	case 3: op_limit(true); break;
	case 4: op_simple_write("memory.use_hierarchy", flags[next(4)]); break;
	case 5:
	case 6: op_kmem_alloc(); break;
	case 7: op_kmem_free(); break;
	case 8: op_user_alloc(); break;
	case 9: op_move(); break;
	case 10: op_exit(); break;
	case 11: op_fork(); break;
	case 12: op_simple_write("memory.force_empty", "1"); break;
	case 13: op_simple_write("cgroup.kill", flags[next(4)]); break;
	case 14: op_simple_write("memory.oom_control", flags[next(4)]); break;
	case 15: op_simple_write("memory.failcnt", "0"); break;
	case 16: op_read(); break;
	case 17: drain_all_stock(NULL); break;
	case 18: memcg_stock_set_enabled(!next(4) ? false : true); break;
	}
}

static void setup_once(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	setenv("HOST_QUIET", "1", 1);
	host_console_discard(true);
	host_mem_init(32ul << 20);
	if (cgroupfs_init())
		abort();
	nr_cpus = FUZZ_CPUS;
	host_oom_wait_hook = oom_wait_hook;
}

static void cleanup(void)
{
	struct memcg_census census;
	bool any;

	host_set_current(NULL);
	host_set_cpu(0);
	for (int i = 0; i < NR_ALLOCS; i++) {
		if (allocs[i].page)
			free_accounted_pages(allocs[i].page, allocs[i].order);
		allocs[i].page = NULL;
	}
	for (int i = 0; i < NR_TASKS; i++)
		task_gone(i);
	do {
		char why[CTL_WHY_MAX];

		any = false;
		for (int s = 1; s < NR_SLOTS; s++) {
			if (!slots[s].used || has_children(s))
				continue;
			expect(ctl_rmdir(slots[s].path, why) == 0,
			       "cleanup: rmdir failed");
			slots[s].used = false;
			any = true;
		}
	} while (any);
	memcg_stock_set_enabled(true);
	drain_all_stock(NULL);
	mem_cgroup_set_use_hierarchy(root_mem_cgroup, false);
	host_task_unregister_all();
	die_check("cleanup");
	expect(mem_cgroup_nr_domains() == 1, "cleanup: domains left");
	expect(mem_cgroup_nr_dying() == 0, "cleanup: dying domains left");
	expect(memcg_kmem_enabled_key.enabled == 0, "cleanup: key still on");
	expect(memcg_census_take(&census) == 0, "census");
	expect(census.kmem_pages == 0 && census.user_pages == 0,
	       "cleanup: charged pages left");
	memcg_census_release(&census);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup_once();
	in = data;
	in_len = size;
	memset(slots, 0, sizeof(slots));
	slots[0].used = true;
	strcpy(slots[0].path, "/cgroup");
	for (int i = 0; i < NR_TASKS; i++)
		tasks[i] = new_task(root_mem_cgroup);

	for (int steps = 0; in_len > 0 && steps < 200; steps++) {
		char what[32];
		unsigned int op = next(19);

		run_op(op);
		host_set_current(NULL);
		reap();
		snprintf(what, sizeof(what), "op %u (step %d)", op, steps);
		die_check(what);
	}
	cleanup();
	return 0;
}
