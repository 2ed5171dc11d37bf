// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_hierarchy.c - domains in a tree: use_hierarchy and its
 * rules, charges going up, kmem_accounted and its propagation, the
 * destruction of domains that still own kernel pages (dying domains),
 * force_empty, and tasks entering, forking, moving, being killed and
 * being frozen.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/unit/memcg_test.h"

#define THIS (1ul << KMEM_ACCOUNTED_THIS)
#define PARENT (1ul << KMEM_ACCOUNTED_PARENT)

static int teardown(void **state)
{
	return memcg_test_teardown(state);
}

static void test_use_hierarchy_rules(void **state)
{
	struct mem_cgroup *p, *c;

	p = test_mkdir("/cgroup/P");
	assert_false(p->use_hierarchy);
	assert_int_equal(mem_cgroup_set_use_hierarchy(p, true), 0);
	assert_int_equal(mem_cgroup_set_use_hierarchy(p, true), 0);
	c = test_mkdir("/cgroup/P/C");
	assert_true(c->use_hierarchy);                 /* inherited */
	assert_ptr_equal(c->res.parent, &p->res);
	assert_ptr_equal(c->kmem.parent, &p->kmem);
	assert_ptr_equal(parent_mem_cgroup(c), p);
	assert_int_equal(mem_cgroup_set_use_hierarchy(p, false), -EBUSY);
	assert_int_equal(mem_cgroup_set_use_hierarchy(c, false), -EINVAL);
	assert_null(p->res.parent);                    /* the root: never */
	test_rmdir("/cgroup/P", -EBUSY);
	test_rmdir("/cgroup/P/C", 0);
	assert_int_equal(mem_cgroup_set_use_hierarchy(p, false), 0);
	c = test_mkdir("/cgroup/P/C");
	assert_false(c->use_hierarchy);
	assert_null(c->res.parent);
	test_rmdir("/cgroup/P/C", 0);
	test_rmdir("/cgroup/P", 0);
}

/* With use_hierarchy at the root, its children still are the top of their
 * chains: the root is never charged. */
static void test_root_use_hierarchy(void **state)
{
	struct mem_cgroup *a, *b;

	assert_int_equal(mem_cgroup_set_use_hierarchy(root_mem_cgroup, true),
			 0);
	a = test_mkdir("/cgroup/A");
	b = test_mkdir("/cgroup/A/B");
	assert_true(a->use_hierarchy);
	assert_null(a->res.parent);
	assert_ptr_equal(b->res.parent, &a->res);
	assert_int_equal(mem_cgroup_set_use_hierarchy(root_mem_cgroup, false),
			 -EBUSY);
	test_rmdir("/cgroup/A/B", 0);
	test_rmdir("/cgroup/A", 0);
	assert_int_equal(mem_cgroup_set_use_hierarchy(root_mem_cgroup, false),
			 0);
}

/* G (hierarchy) > P > C, and N a non-hierarchical child of an accounted
 * domain. */
static void test_kmem_accounted_propagation(void **state)
{
	struct mem_cgroup *g, *p, *c, *late, *nc;

	g = test_mkdir("/cgroup/G");
	test_mkdir("/cgroup/N");
	mem_cgroup_set_use_hierarchy(g, true);
	p = test_mkdir("/cgroup/G/P");
	c = test_mkdir("/cgroup/G/P/C");
	nc = test_mkdir("/cgroup/N/C");
	assert_int_equal(c->view.kmem_accounted, 0);

	/* A limit on G: P and C are accounted through it. */
	test_write("/cgroup/G/memory.kmem.limit_in_bytes", "64M", 0);
	assert_int_equal(g->view.kmem_accounted, THIS);
	assert_int_equal(p->view.kmem_accounted, PARENT);
	assert_int_equal(c->view.kmem_accounted, PARENT);
	assert_true(memcg_kmem_is_accounted(c));

	/* Created under an accounted domain: accounted at once. */
	late = test_mkdir("/cgroup/G/P/late");
	assert_int_equal(late->view.kmem_accounted, PARENT);

	/* P's own limit, then G's removed: P stays accounted by itself,
	 * C and late through P. */
	test_write("/cgroup/G/P/memory.kmem.limit_in_bytes", "32M", 0);
	assert_int_equal(p->view.kmem_accounted, THIS | PARENT);
	test_write("/cgroup/G/memory.kmem.limit_in_bytes", "-1", 0);
	assert_int_equal(g->view.kmem_accounted, 0);
	assert_int_equal(p->view.kmem_accounted, THIS);
	assert_int_equal(c->view.kmem_accounted, PARENT);

	/* P unlimited too: nobody is accounted any more. */
	test_write("/cgroup/G/P/memory.kmem.limit_in_bytes", "-1", 0);
	assert_int_equal(p->view.kmem_accounted, 0);
	assert_int_equal(c->view.kmem_accounted, 0);
	assert_int_equal(late->view.kmem_accounted, 0);
	assert_int_equal(memcg_kmem_enabled_key.enabled, 2);  /* G and P keep it */

	/* Without use_hierarchy, a child is on its own. */
	test_write("/cgroup/N/memory.kmem.limit_in_bytes", "64M", 0);
	assert_int_equal(nc->view.kmem_accounted, 0);
	assert_check_ok();

	test_rmdir("/cgroup/G/P/late", 0);
	test_rmdir("/cgroup/G/P/C", 0);
	test_rmdir("/cgroup/G/P", 0);
	test_rmdir("/cgroup/G", 0);
	test_rmdir("/cgroup/N/C", 0);
	test_rmdir("/cgroup/N", 0);
}

/* A child's kernel pages count against the parent's kmem limit. */
static void test_hierarchical_charge(void **state)
{
	struct mem_cgroup *p, *c;
	struct task *t;
	struct page *pages[5];

	p = test_mkdir("/cgroup/P");
	mem_cgroup_set_use_hierarchy(p, true);
	c = test_mkdir("/cgroup/P/C");
	test_write("/cgroup/P/memory.kmem.limit_in_bytes", "64K", 0);
	t = test_task(c);
	host_set_current(t);
	for (int i = 0; i < 4; i++)
		assert_non_null(pages[i] = alloc_pages(GFP_ACCOUNT, 2));
	pages[4] = alloc_pages(GFP_ACCOUNT | __GFP_NOWARN, 2);
	assert_null(pages[4]);
	assert_int_equal(usage(&c->kmem), 65536);
	assert_int_equal(usage(&p->kmem), 65536);
	assert_int_equal(p->kmem.failcnt, 1);
	assert_int_equal(c->kmem.failcnt, 0);
	assert_int_equal(usage(&p->res), usage(&c->res));
	assert_check_ok();
	for (int i = 0; i < 4; i++)
		free_accounted_pages(pages[i], 2);
	test_task_exit(t);
	test_rmdir("/cgroup/P/C", 0);
	test_rmdir("/cgroup/P", 0);
}

/* rmdir with kernel pages left: the domain lingers, dying, until the last
 * one is freed; its static-key reference goes with it. */
static void test_dying_domain(void **state)
{
	struct mem_cgroup *a;
	struct task *t;
	struct page *stack, *page;

	a = test_mkdir("/cgroup/A");
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	t = test_task(a);
	host_set_current(t);
	stack = alloc_pages(THREADINFO_GFP_ACCOUNTED, 2);
	page = alloc_pages(GFP_ACCOUNT, 0);
	test_rmdir("/cgroup/A", -EBUSY);  /* a task */
	host_set_current(NULL);
	test_task_exit(t);                /* exits; its stack is not freed yet */

	test_rmdir("/cgroup/A", 0);
	assert_int_equal(mem_cgroup_nr_domains(), 1);
	assert_int_equal(mem_cgroup_nr_dying(), 1);
	{
		char buf[128], why[CTL_WHY_MAX];

		assert_true(ctl_read("/cgroup/cgroup.stat", buf, sizeof(buf),
				     why) > 0);
		assert_string_equal(buf, "nr_domains 1\nnr_dying_descendants 1\n");
	}
	assert_int_equal(memcg_kmem_enabled_key.enabled, 1);
	assert_true(a->dying);
	assert_int_equal(usage(&a->res), usage(&a->kmem)); /* stock drained */
	assert_int_equal(usage(&a->kmem), 16384 + 4096);
	assert_check_ok();

	free_accounted_pages(stack, 2);
	assert_int_equal(mem_cgroup_nr_dying(), 1);
	free_accounted_pages(page, 0);    /* the last one: a is freed */
	assert_int_equal(mem_cgroup_nr_dying(), 0);
	assert_int_equal(memcg_kmem_enabled_key.enabled, 0);
}

/* A dying child pins its removed parent. */
static void test_dying_chain(void **state)
{
	struct mem_cgroup *p, *c;
	struct task *t;
	struct page *page;

	p = test_mkdir("/cgroup/P");
	mem_cgroup_set_use_hierarchy(p, true);
	c = test_mkdir("/cgroup/P/C");
	test_write("/cgroup/P/memory.kmem.limit_in_bytes", "1M", 0);
	t = test_task(c);
	host_set_current(t);
	page = alloc_pages(GFP_ACCOUNT, 1);
	host_set_current(NULL);
	test_task_exit(t);
	test_rmdir("/cgroup/P/C", 0);
	test_rmdir("/cgroup/P", 0);
	assert_int_equal(mem_cgroup_nr_dying(), 2);
	assert_int_equal(usage(&p->kmem), 8192);
	assert_check_ok();
	free_accounted_pages(page, 1);
	assert_int_equal(mem_cgroup_nr_dying(), 0);
}

/* A domain freed with kernel memory still charged is a bug: panic. */
static void test_free_with_kmem_panics(void **state)
{
	struct mem_cgroup *a = test_mkdir("/cgroup/A");
	struct res_counter *fail;

	mem_cgroup_get(a);
	test_rmdir("/cgroup/A", 0);
	res_counter_charge(&a->kmem, 4096, &fail);  /* a lost page */
	HOST_EXPECT_PANIC(mem_cgroup_put(a), "kmem usage 4096");
	assert_non_null(strstr(host_last_panic, "/cgroup/A"));
	/* Put things right, and free it properly. */
	res_counter_uncharge(&a->kmem, 4096);
	a->refcnt = 1;
	mem_cgroup_put(a);
	assert_int_equal(mem_cgroup_nr_dying(), 0);
}

/* force_empty and rmdir move user charges to the parent: with
 * use_hierarchy the parent, else the root. */
static void test_force_empty(void **state)
{
	struct mem_cgroup *p, *c, *n;
	struct task *t;

	p = test_mkdir("/cgroup/P");
	mem_cgroup_set_use_hierarchy(p, true);
	c = test_mkdir("/cgroup/P/C");
	n = test_mkdir("/cgroup/N");
	t = test_task(c);
	host_set_current(t);
	assert_int_equal(user_memory_alloc(3, USER_RSS), 0);
	assert_int_equal(user_memory_alloc(2, USER_CACHE), 0);
	drain_all_stock(NULL);
	assert_int_equal(usage(&c->res), 5 * 4096);
	test_write("/cgroup/P/C/memory.force_empty", "1", -EBUSY);
	assert_int_equal(mem_cgroup_move_task(t, n), 0);
	assert_int_equal(mem_cgroup_force_empty(p), -EBUSY); /* a child */
	test_write("/cgroup/P/C/memory.force_empty", "", 0);
	assert_int_equal(usage(&c->res), 0);
	assert_int_equal(usage(&p->res), 5 * 4096);
	assert_int_equal(p->nr_rss, 3);
	assert_int_equal(p->nr_cache, 2);
	assert_check_ok();

	/* N: no use_hierarchy in the root: its pages go to the root. */
	assert_int_equal(user_memory_alloc(2, USER_RSS), 0);
	drain_all_stock(NULL);
	assert_int_equal(usage(&n->res), 2 * 4096);
	assert_int_equal(mem_cgroup_move_task(t, root_mem_cgroup), 0);
	test_rmdir("/cgroup/N", 0);            /* rmdir does force_empty */
	assert_int_equal(root_mem_cgroup->nr_rss, 2);
	assert_int_equal(mem_cgroup_nr_dying(), 0);

	test_rmdir("/cgroup/P/C", 0);
	test_rmdir("/cgroup/P", 0);            /* P's pages go to the root */
	assert_int_equal(root_mem_cgroup->nr_rss, 5);
	assert_int_equal(root_mem_cgroup->nr_cache, 2);
	assert_check_ok();
	host_set_current(NULL);
	test_task_exit(t);
	assert_int_equal(root_mem_cgroup->nr_rss, 0);
}

static void test_hierarchical_limits_and_totals(void **state)
{
	struct mem_cgroup_stat st;
	struct mem_cgroup *g, *p, *c;
	struct task *t;

	g = test_mkdir("/cgroup/G");
	mem_cgroup_set_use_hierarchy(g, true);
	p = test_mkdir("/cgroup/G/P");
	c = test_mkdir("/cgroup/G/P/C");
	test_write("/cgroup/G/memory.limit_in_bytes", "1M", 0);
	test_write("/cgroup/G/P/memory.limit_in_bytes", "2M", 0);
	test_write("/cgroup/G/P/memory.kmem.limit_in_bytes", "512K", 0);
	assert_int_equal(mem_cgroup_read_stat(c, &st), 0);
	assert_int_equal(st.hierarchical_memory_limit, 1 << 20);
	assert_int_equal(st.hierarchical_kmem_limit, 512 << 10);

	t = test_task(c);
	host_set_current(t);
	assert_int_equal(user_memory_alloc(4, USER_RSS), 0);
	assert_int_equal(user_memory_alloc(1, USER_CACHE), 0);
	struct page *k = alloc_pages(GFP_ACCOUNT, 0);
	assert_int_equal(mem_cgroup_read_stat(g, &st), 0);
	assert_int_equal(st.rss, 0);
	assert_int_equal(st.total_rss, 4 * 4096);
	assert_int_equal(st.total_cache, 4096);
	assert_int_equal(st.total_kmem, 4096);
	/* C's stock: what is left of a res batch after 5 user pages, and of
	 * a res + kmem batch after one kernel page. */
	assert_int_equal(st.total_stock,
			 (CHARGE_BATCH - 5 + CHARGE_BATCH - 1) * 4096);
	assert_int_equal(mem_cgroup_read_stat(c, &st), 0);
	assert_int_equal(st.rss, 4 * 4096);
	assert_int_equal(st.kmem, 4096);
	assert_check_ok();
	free_accounted_pages(k, 0);
	host_set_current(NULL);
	test_task_exit(t);
	test_rmdir("/cgroup/G/P/C", 0);
	test_rmdir("/cgroup/G/P", 0);
	test_rmdir("/cgroup/G", 0);
	(void)p;
}

/* Tasks: fork into the parent's domain, kill a subtree, and a fork by a
 * killed task is killed too. */
static void test_tasks(void **state)
{
	struct mem_cgroup *a, *b;
	struct task *t1, *t2, *child, *sys;

	a = test_mkdir("/cgroup/A");
	b = test_mkdir("/cgroup/A/B");
	t1 = test_task(a);
	t2 = test_task(b);
	sys = test_task(NULL);
	sys->flags |= TASK_SYSTEM;
	child = calloc(1, sizeof(*child));
	child->pid = 999;
	assert_int_equal(mem_cgroup_fork_task(t2, child), 0);
	host_task_register(child);
	assert_ptr_equal(child->memcg, b);
	assert_int_equal(b->nr_tasks, 2);
	assert_false(host_task_killed(child));

	assert_int_equal(mem_cgroup_kill_tasks(a), 3);
	assert_true(host_task_killed(t1) && host_task_killed(t2) &&
		    host_task_killed(child));
	assert_int_equal(mem_cgroup_kill_tasks(root_mem_cgroup), 3); /* not sys */

	struct task *late = calloc(1, sizeof(*late));
	late->pid = 1000;
	host_task_register(late);
	assert_int_equal(mem_cgroup_fork_task(t1, late), 0);
	assert_true(host_task_killed(late));      /* the parent was killed */

	/* Moving: an exited task, a domain being removed. */
	test_task_exit(child);
	struct mem_cgroup *c = test_mkdir("/cgroup/C");
	mem_cgroup_get(c);
	test_rmdir("/cgroup/C", 0);
	assert_int_equal(mem_cgroup_move_task(t1, c), -ENOENT);
	mem_cgroup_put(c);
	mem_cgroup_exit_task(late);
	assert_int_equal(mem_cgroup_move_task(late, a), -ESRCH);
	host_task_unregister(late);
	free(late);
	sys->flags &= ~TASK_SYSTEM;
	test_task_exit(sys);
	test_task_exit(t1);
	test_task_exit(t2);
	test_rmdir("/cgroup/A/B", 0);
	test_rmdir("/cgroup/A", 0);
}

/* cgroup.freeze: a cgroup is frozen if it or an ancestor asks; its tasks
 * are marked, and so is a task that enters it, by fork or by a move; a
 * new child is born frozen; a thaw below a frozen ancestor changes
 * nothing. */
static void test_freeze(void **state)
{
	struct mem_cgroup *a, *b, *c, *d;
	struct task *t1, *t2, *child, *sys;

	a = test_mkdir("/cgroup/A");
	b = test_mkdir("/cgroup/A/B");
	d = test_mkdir("/cgroup/D");
	t1 = test_task(a);
	t2 = test_task(b);
	sys = test_task(a);
	sys->flags |= TASK_SYSTEM;
	assert_false(mem_cgroup_frozen(a));  /* not asked to */

	mem_cgroup_freeze(a, true);
	assert_true(a->v2.freeze && a->v2.e_freeze);
	assert_true(!b->v2.freeze && b->v2.e_freeze);
	assert_false(d->v2.e_freeze);
	assert_true(t1->freezing && t2->freezing);
	assert_false(sys->freezing);          /* system tasks never freeze */
	sys->flags &= ~TASK_SYSTEM;           /* (and live in the root) */
	test_task_exit(sys);
	/* (The host's tasks stop as soon as they are marked.) */
	assert_true(mem_cgroup_frozen(a) && mem_cgroup_frozen(b));
	assert_false(mem_cgroup_frozen(d));

	c = test_mkdir("/cgroup/A/B/C");
	assert_true(c->v2.e_freeze);          /* born frozen */
	assert_true(mem_cgroup_frozen(c));    /* empty: frozen */
	child = calloc(1, sizeof(*child));
	child->pid = 999;
	assert_int_equal(mem_cgroup_fork_task(t2, child), 0);
	host_task_register(child);
	assert_true(child->freezing);

	assert_int_equal(mem_cgroup_move_task(t2, d), 0);
	assert_false(t2->freezing);           /* out of the frozen tree */
	assert_int_equal(mem_cgroup_move_task(t2, c), 0);
	assert_true(t2->freezing);            /* and into it again */

	mem_cgroup_freeze(b, false);          /* A still freezes B */
	assert_true(b->v2.e_freeze && t2->freezing);
	mem_cgroup_freeze(b, true);
	mem_cgroup_freeze(a, false);          /* B's own freeze holds */
	assert_true(!a->v2.e_freeze && b->v2.e_freeze && c->v2.e_freeze);
	assert_false(t1->freezing);
	assert_true(child->freezing && t2->freezing);
	mem_cgroup_freeze(b, false);
	assert_false(child->freezing || t2->freezing);
	assert_false(mem_cgroup_frozen(c));

	test_task_exit(child);
	test_task_exit(t1);
	test_task_exit(t2);
	test_rmdir("/cgroup/A/B/C", 0);
	test_rmdir("/cgroup/A/B", 0);
	test_rmdir("/cgroup/A", 0);
	test_rmdir("/cgroup/D", 0);
}

static void test_path(void **state)
{
	char buf[MEMCG_PATH_MAX];
	struct mem_cgroup *x = test_mkdir("/cgroup/x");
	struct mem_cgroup *y = test_mkdir("/cgroup/x/yy");

	mem_cgroup_path(root_mem_cgroup, buf, sizeof(buf));
	assert_string_equal(buf, "/cgroup");
	mem_cgroup_path(y, buf, sizeof(buf));
	assert_string_equal(buf, "/cgroup/x/yy");
	mem_cgroup_path(y, buf, 6);
	assert_string_equal(buf, "/cgro");
	(void)x;
	test_rmdir("/cgroup/x/yy", 0);
	test_rmdir("/cgroup/x", 0);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_use_hierarchy_rules),
		T(test_root_use_hierarchy),
		T(test_kmem_accounted_propagation),
		T(test_hierarchical_charge),
		T(test_dying_domain),
		T(test_dying_chain),
		T(test_free_with_kmem_panics),
		T(test_force_empty),
		T(test_hierarchical_limits_and_totals),
		T(test_tasks),
		T(test_freeze),
		T(test_path),
	};

	return cmocka_run_group_tests(tests, memcg_test_setup, NULL);
}
