// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_memcg_slab.c - accounted slab caches (mm/memcg/memcg_slab.c,
 * mm/slab.c, mm/slab_alloc.c): each domain gets its own child cache on its
 * first allocation, whose slab pages are charged to it and hold only its
 * objects; kmalloc(GFP_ACCOUNT) the same; what is not accounted stays in
 * the root cache; a limit refuses objects; a domain removed while its
 * child caches hold objects stays dying until they are freed, and its
 * child caches go with it; /tmp's directories (kernel/fs/tmpfs.c), made in a
 * loop until ENOMEM, are charged and given back. The code under test is
 * the kernel's own.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kernel/fs/tmpfs.h"
#include "mm/memcg/memcg_slab.h"
#include "mm/slab.h"
#include "mm/slabinfo.h"
#include "tests/unit/host_ctltree.h"
#include "tests/unit/memcg_test.h"

#define OBJ_SIZE 200

static struct mem_cgroup *A, *B;
static struct task *ta, *tb;
static struct kmem_cache *acct;   /* SLAB_ACCOUNT, 200-byte objects */
static struct kmem_cache *plain;  /* not accounted */

/* Two accounted domains (kmem limit 1M), each with a task; current: ta. */
static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	B = test_mkdir("/cgroup/B");
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	test_write("/cgroup/B/memory.kmem.limit_in_bytes", "1M", 0);
	ta = test_task(A);
	tb = test_task(B);
	acct = kmem_cache_create("acct", OBJ_SIZE, 0, SLAB_ACCOUNT);
	plain = kmem_cache_create("plain", OBJ_SIZE, 0, 0);
	assert_non_null(acct);
	assert_non_null(plain);
	host_set_current(ta);
	return 0;
}

static int teardown(void **state)
{
	host_set_current(NULL);
	drain_all_stock(NULL);
	assert_check_ok();
	if (ta)
		test_task_exit(ta);
	if (tb)
		test_task_exit(tb);
	test_rmdir("/cgroup/A", 0);
	test_rmdir("/cgroup/B", 0);
	kmem_cache_destroy(acct);
	kmem_cache_destroy(plain);
	return memcg_test_teardown(state);
}

/* child_of - memcg's child cache of root, or NULL. */
static struct kmem_cache *child_of(struct mem_cgroup *memcg,
				   struct kmem_cache *root)
{
	return memcg->view.slab_caches[root->memcg_params.id];
}

/* slabinfo_line - the /proc/slabinfo line of cache name, copied to line;
 * false if there is none. */
static bool slabinfo_line(const char *name, char *line, size_t size)
{
	static char text[CTL_READ_MAX];
	size_t len = strlen(name);

	slabinfo_show(text, sizeof(text));
	for (char *p = text, *nl; p && *p;
	     p = (nl = strchr(p, '\n')) ? nl + 1 : NULL) {
		if (strncmp(p, name, len) == 0 && p[len] == ' ') {
			size_t n = strcspn(p, "\n");

			snprintf(line, size, "%.*s", (int)n, p);
			return true;
		}
	}
	return false;
}

/* The first allocation of a domain makes its child cache; its slab is
 * charged to the domain; another domain's objects never share it. */
static void test_child_cache_per_domain(void **state)
{
	void *a1, *a2, *b1;
	struct kmem_cache *ca, *cb;

	assert_null(child_of(A, acct));
	a1 = kmem_cache_alloc(acct, GFP_KERNEL);
	assert_non_null(a1);
	ca = child_of(A, acct);
	assert_non_null(ca);
	assert_string_equal(ca->name, "acct(A)");
	assert_ptr_equal(ca->memcg_params.memcg, A);
	assert_ptr_equal(ca->memcg_params.root_cache, acct);
	assert_int_equal(ca->size, acct->size);
	assert_int_equal(ca->num, acct->num);
	assert_int_equal(kmem_cache_in_use(ca), 1);
	assert_int_equal(kmem_cache_in_use(acct), 0);  /* nothing in the root */

	/* The slab's page belongs to A: kmem usage is the slab, exactly. */
	assert_true(virt_to_page(a1)->flags & PG_kmemcg);
	assert_ptr_equal(virt_to_page(a1)->memcg, A);
	assert_int_equal(owned_kmem(A), PAGE_SIZE << ca->order);

	/* A second object of A shares the slab: no new charge. */
	a2 = kmem_cache_alloc(acct, GFP_KERNEL);
	assert_ptr_equal(virt_to_page(a2), virt_to_page(a1));
	assert_int_equal(owned_kmem(A), PAGE_SIZE << ca->order);

	/* B's object goes to B's child cache and a page charged to B. */
	host_set_current(tb);
	b1 = kmem_cache_alloc(acct, GFP_KERNEL);
	cb = child_of(B, acct);
	assert_non_null(cb);
	assert_ptr_not_equal(cb, ca);
	assert_string_equal(cb->name, "acct(B)");
	assert_ptr_not_equal(virt_to_page(b1), virt_to_page(a1));
	assert_ptr_equal(virt_to_page(b1)->memcg, B);
	assert_int_equal(owned_kmem(B), PAGE_SIZE << cb->order);
	assert_check_ok();

	/* Freed through the root cache (as callers do) or by kfree. */
	kmem_cache_free(acct, a1);
	kfree(a2);
	kmem_cache_free(acct, b1);
	/* A child cache keeps no empty slab but this CPU's: each domain pays
	 * for one slab, until the CPU slabs are taken back. */
	assert_int_equal(owned_kmem(A), PAGE_SIZE << ca->order);
	assert_int_equal(owned_kmem(B), PAGE_SIZE << cb->order);
	assert_int_equal(ca->num_slabs, 1);
	assert_check_ok();
	kmem_cache_shrink(ca);
	kmem_cache_shrink(cb);
	assert_int_equal(owned_kmem(A), 0);
	assert_int_equal(owned_kmem(B), 0);
	assert_int_equal(ca->num_slabs, 0);
	assert_ptr_equal(child_of(A, acct), ca);  /* the cache stays */
	assert_check_ok();
}

/* Not accounted, so from the root cache and charged to nobody: the root,
 * system tasks, interrupt context, __GFP_NOFAIL, a domain without a kmem
 * limit, and a cache without SLAB_ACCOUNT. */
static void test_not_accounted(void **state)
{
	struct task *sys = test_task(NULL), *rootling = test_task(NULL);
	struct mem_cgroup *C = test_mkdir("/cgroup/C");
	struct task *tc = test_task(C);
	void *obj[6];

	sys->flags |= TASK_SYSTEM;
	host_set_current(rootling);
	obj[0] = kmem_cache_alloc(acct, GFP_KERNEL);
	host_set_current(sys);
	obj[1] = kmem_cache_alloc(acct, GFP_KERNEL);
	host_set_current(ta);
	host_in_interrupt = true;
	obj[2] = kmem_cache_alloc(acct, GFP_ATOMIC);
	host_in_interrupt = false;
	obj[3] = kmem_cache_alloc(acct, GFP_KERNEL | __GFP_NOFAIL);
	obj[4] = kmem_cache_alloc(plain, GFP_ACCOUNT);
	host_set_current(tc);  /* C has no kmem limit */
	obj[5] = kmem_cache_alloc(acct, GFP_KERNEL);

	for (int i = 0; i < 6; i++) {
		assert_non_null(obj[i]);
		assert_false(virt_to_page(obj[i])->flags & PG_kmemcg);
	}
	assert_int_equal(kmem_cache_in_use(acct), 5);
	assert_int_equal(kmem_cache_in_use(plain), 1);
	assert_null(child_of(A, acct));
	assert_null(child_of(C, acct));
	assert_int_equal(owned_kmem(A), 0);
	assert_check_ok();

	for (int i = 0; i < 6; i++)
		kfree(obj[i]);
	host_set_current(ta);
	test_task_exit(sys);
	test_task_exit(rootling);
	test_task_exit(tc);
	test_rmdir("/cgroup/C", 0);
}

/* kmalloc(GFP_ACCOUNT) goes to the domain's copy of the kmalloc cache;
 * kmalloc(GFP_KERNEL) does not. */
static void test_kmalloc_account(void **state)
{
	void *p = kmalloc(100, GFP_ACCOUNT), *q = kmalloc(100, GFP_KERNEL);
	struct kmem_cache *child = NULL;

	for (int id = 0; id < MEMCG_CACHES_MAX; id++)
		if (A->view.slab_caches[id])
			child = A->view.slab_caches[id];
	assert_non_null(child);
	assert_string_equal(child->name, "kmalloc-128(A)");
	assert_ptr_equal(virt_to_page(p)->memcg, A);
	assert_false(virt_to_page(q)->flags & PG_kmemcg);
	assert_true(ksize(p) >= 100);
	assert_int_equal(owned_kmem(A), PAGE_SIZE << child->order);
	kfree(p);
	kfree(q);
	assert_int_equal(owned_kmem(A), PAGE_SIZE << child->order);
	kmem_cache_shrink(child);
	assert_int_equal(owned_kmem(A), 0);
}

/* A kmem limit refuses objects once their slabs no longer fit: usage
 * stays within the limit, failcnt counts, and every object allocated is
 * in a page charged to the domain. */
static void test_limit_refuses_objects(void **state)
{
	void *objs[256];
	int n = 0;
	struct kmem_cache *ca;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "16K", 0);
	while (n < 256 && (objs[n] = kmem_cache_alloc(acct, GFP_KERNEL |
						       __GFP_NOWARN)))
		n++;
	ca = child_of(A, acct);
	assert_non_null(ca);
	/* 16K is four slabs of one page: exactly 4 * num objects fit. */
	assert_int_equal(ca->order, 0);
	assert_int_equal(n, 4 * ca->num);
	assert_int_equal(owned_kmem(A), 16384);
	assert_int_equal(test_read_u64("/cgroup/A/memory.kmem.failcnt"), 1);
	assert_check_ok();
	for (int i = 0; i < n; i++)
		kmem_cache_free(acct, objs[i]);
	assert_int_equal(owned_kmem(A), 0);
}

/* After a move, the task's new objects go to the new domain's child
 * cache; the old ones stay charged to the old domain. */
static void test_move_between_domains(void **state)
{
	void *a = kmem_cache_alloc(acct, GFP_KERNEL), *b;

	assert_int_equal(mem_cgroup_move_task(ta, B), 0);
	b = kmem_cache_alloc(acct, GFP_KERNEL);
	assert_ptr_equal(virt_to_page(a)->memcg, A);
	assert_ptr_equal(virt_to_page(b)->memcg, B);
	assert_int_equal(kmem_cache_in_use(child_of(B, acct)), 1);
	assert_int_equal(kmem_cache_in_use(child_of(A, acct)), 1);
	kmem_cache_free(acct, a);
	kmem_cache_free(acct, b);
	assert_int_equal(mem_cgroup_move_task(ta, A), 0);
	memcg_slab_flush(A);
	memcg_slab_flush(B);
	assert_int_equal(owned_kmem(A) + owned_kmem(B), 0);
}

/* /proc/slabinfo: Linux's 2.1 header, and a line per cache with the
 * child caches as root(domain). */
static void test_slabinfo(void **state)
{
	static char text[CTL_READ_MAX];
	char line[256], name[64];
	unsigned long active, num, slabs_active, slabs;
	unsigned int objsize, perslab, pages, lim, batch, shared;
	int ret;
	void *a = kmem_cache_alloc(acct, GFP_KERNEL);

	assert_true(slabinfo_show(text, sizeof(text)) > 0);
	assert_true(strncmp(text, "slabinfo - version: 2.1\n# name            "
			    "<active_objs> <num_objs> <objsize> <objperslab> "
			    "<pagesperslab> : tunables <limit> <batchcount> "
			    "<sharedfactor> : slabdata <active_slabs> "
			    "<num_slabs> <sharedavail>\n", 200) == 0);
	assert_true(slabinfo_line("acct(A)", line, sizeof(line)));
	assert_int_equal(sscanf(line, "%63s %lu %lu %u %u %u : tunables %u %u "
				"%u : slabdata %lu %lu", name, &active, &num,
				&objsize, &perslab, &pages, &lim, &batch,
				&shared, &slabs_active, &slabs), 11);
	assert_int_equal(active, 1);
	assert_int_equal(num, child_of(A, acct)->num);
	assert_int_equal(objsize, acct->size);
	assert_int_equal(pages, 1u << acct->order);
	assert_int_equal(slabs, 1);
	assert_true(slabinfo_line("acct", line, sizeof(line)));
	assert_false(slabinfo_line("acct(B)", line, sizeof(line)));

	/* Only whole lines when the buffer is short. */
	ret = slabinfo_show(text, 300);
	assert_int_equal(ret, (int)strlen(text));
	assert_true(ret > 0 && ret < 300);
	assert_int_equal(text[ret - 1], '\n');
	kmem_cache_free(acct, a);
}

/* A domain removed while its child cache holds an object (a zombie's
 * struct task) stays dying until the object is freed; then it is freed,
 * and its child cache with it. */
static void test_dying_domain_waits_for_objects(void **state)
{
	void *obj = kmem_cache_alloc(acct, GFP_KERNEL);

	assert_non_null(obj);
	assert_non_null(kmem_cache_find("acct(A)"));
	test_task_exit(ta);
	ta = NULL;
	test_rmdir("/cgroup/A", 0);
	assert_int_equal(mem_cgroup_nr_dying(), 1);
	assert_non_null(kmem_cache_find("acct(A)"));
	assert_check_ok();

	kmem_cache_free(acct, obj);  /* the last object: the last page */
	assert_int_equal(mem_cgroup_nr_dying(), 0);
	assert_null(kmem_cache_find("acct(A)"));
	assert_check_ok();
	A = test_mkdir("/cgroup/A");  /* for the teardown */
}

/* Destroying a root cache destroys its domains' empty copies too. */
static void test_destroy_root_cache(void **state)
{
	struct kmem_cache *tmp = kmem_cache_create("tmp", 64, 0, SLAB_ACCOUNT);
	void *p = kmem_cache_alloc(tmp, GFP_KERNEL);
	int id = tmp->memcg_params.id;

	assert_true(id >= 0);
	assert_ptr_equal(kmem_cache_find("tmp"), tmp);
	assert_non_null(A->view.slab_caches[id]);
	assert_ptr_equal(kmem_cache_find("tmp(A)"), A->view.slab_caches[id]);
	kmem_cache_free(tmp, p);
	kmem_cache_destroy(tmp);
	assert_null(kmem_cache_find("tmp(A)"));
	assert_null(kmem_cache_find("tmp"));
	assert_null(A->view.slab_caches[id]);
}

/* The cover letter's loop, `while true; do mkdir x; cd x; done`, under a
 * 64K kmem limit: it stops with ENOMEM at the limit; rm -r gives every
 * page back. */
static void test_tmpfs_mkdir_loop(void **state)
{
	struct tmpfs_inode *cwd;
	char why[CTL_WHY_MAX];
	int made = 0, ret;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "64K", 0);
	assert_int_equal(tmpfs_open_dir("/tmp", &cwd), 0);
	for (;;) {
		ret = tmpfs_mkdir_at(cwd, "x");
		if (ret == 0)
			made++;
		if (ret != 0 && ret != -EEXIST)
			break;
		assert_int_equal(tmpfs_chdir_at(&cwd, "x"), 0);
	}
	assert_int_equal(ret, -ENOMEM);
	assert_true(made > 16);
	assert_true(owned_kmem(A) <= 65536);
	assert_true(owned_kmem(A) > 65536 - 2 * 4096);
	assert_true(test_read_u64("/cgroup/A/memory.kmem.failcnt") >= 1);
	assert_check_ok();

	/* The loop again goes down the chain it made (mkdir x: EEXIST). */
	tmpfs_put(cwd);
	assert_int_equal(tmpfs_open_dir("/tmp", &cwd), 0);
	assert_int_equal(tmpfs_mkdir_at(cwd, "x"), -EEXIST);
	assert_int_equal(tmpfs_chdir_at(&cwd, "x"), 0);

	/* rmdir of a non-empty directory is refused; rm -r removes it all,
	 * and the working directory, removed, takes nothing new. */
	host_set_current(NULL);
	assert_int_equal(ctl_rmdir("/tmp/x", why), -EBUSY);
	assert_int_equal(ctl_rmdir("/tmp", why), -EBUSY);
	assert_int_equal(ctl_rmtree("/tmp", why), -EBUSY);
	assert_int_equal(ctl_rmtree("/tmp/x", why), 0);
	assert_int_equal(tmpfs_mkdir_at(cwd, "y"), -ENOENT);
	tmpfs_put(cwd);
	memcg_slab_flush(A);  /* its CPU slabs */
	assert_int_equal(owned_kmem(A), 0);
	assert_int_equal(host_ctl_list("/tmp", why, sizeof(why), NULL), 0);
	assert_check_ok();
}

/* A domain whose only object comes and goes keeps its CPU slab: charged
 * once, not once per object; each CPU holds a slab of its own, and
 * removing the domain takes them back, so that it is freed at once. */
static void test_churn_keeps_cpu_slab(void **state)
{
	struct mem_cgroup *D = test_mkdir("/cgroup/D");
	struct task *td;
	struct kmem_cache *cd;
	uint64_t failcnt;
	void *obj;

	test_write("/cgroup/D/memory.kmem.limit_in_bytes", "1M", 0);
	td = test_task(D);
	host_set_current(td);
	nr_cpus = 2;
	kmem_cache_free(acct, kmem_cache_alloc(acct, GFP_KERNEL));
	cd = child_of(D, acct);
	assert_non_null(cd);
	assert_int_equal(owned_kmem(D), PAGE_SIZE << cd->order);
	failcnt = test_read_u64("/cgroup/D/memory.kmem.failcnt");
	for (int i = 0; i < 500; i++) {
		obj = kmem_cache_alloc(acct, GFP_KERNEL);
		assert_non_null(obj);
		kmem_cache_free(acct, obj);
		assert_int_equal(owned_kmem(D), PAGE_SIZE << cd->order);
	}
	assert_int_equal(cd->num_slabs, 1);
	assert_int_equal(test_read_u64("/cgroup/D/memory.kmem.failcnt"),
			 failcnt);

	/* Another CPU: a slab of its own, and no more. */
	host_set_cpu(1);
	for (int i = 0; i < 10; i++)
		kmem_cache_free(acct, kmem_cache_alloc(acct, GFP_KERNEL));
	host_set_cpu(0);
	assert_int_equal(cd->num_slabs, 2);
	assert_int_equal(owned_kmem(D), 2 * (PAGE_SIZE << cd->order));
	assert_check_ok();

	host_set_current(ta);
	test_task_exit(td);
	test_rmdir("/cgroup/D", 0);
	assert_int_equal(mem_cgroup_nr_dying(), 0);  /* freed at once */
	nr_cpus = 1;
}

/* A removed domain's child caches are dead: an object still allocated
 * in one (by a task that moved out while it did) takes a slab that no
 * CPU keeps, so the domain goes with its last object. */
static void test_dead_cache_keeps_no_cpu_slab(void **state)
{
	struct mem_cgroup *D = test_mkdir("/cgroup/D");
	struct mem_cgroup *old;
	struct task *td;
	struct kmem_cache *cd;
	void *kept, *late;

	test_write("/cgroup/D/memory.kmem.limit_in_bytes", "1M", 0);
	td = test_task(D);
	host_set_current(td);
	kept = kmem_cache_alloc(acct, GFP_KERNEL);
	assert_non_null(kept);
	cd = child_of(D, acct);
	host_set_current(ta);
	test_task_exit(td);
	test_rmdir("/cgroup/D", 0);
	assert_true(cd->memcg_params.dead);
	assert_null(cd->cpu_slab[0].page);
	assert_int_equal(mem_cgroup_nr_dying(), 1);

	old = set_active_memcg(D);  /* D is alive: kept's page holds it */
	late = kmem_cache_alloc(acct, GFP_KERNEL);
	set_active_memcg(old);
	assert_non_null(late);
	assert_int_equal(kmem_cache_in_use(cd), 2);  /* in the dead cache */
	assert_ptr_equal(virt_to_page(late)->memcg, D);
	assert_null(cd->cpu_slab[0].page);
	assert_check_ok();

	kmem_cache_free(acct, kept);
	kmem_cache_free(acct, late);
	assert_int_equal(mem_cgroup_nr_dying(), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

static int group_setup(void **state)
{
	if (memcg_test_setup(state))
		return -1;
	return tmpfs_init();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_child_cache_per_domain),
		T(test_not_accounted),
		T(test_kmalloc_account),
		T(test_limit_refuses_objects),
		T(test_move_between_domains),
		T(test_slabinfo),
		T(test_dead_cache_keeps_no_cpu_slab),
		T(test_dying_domain_waits_for_objects),
		T(test_destroy_root_cache),
		T(test_tmpfs_mkdir_loop),
		T(test_churn_keeps_cpu_slab),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
