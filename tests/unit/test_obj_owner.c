// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_obj_owner.c - the `objects` design of slab accounting
 * (mm/memcg/obj_owner.c, mm/slab_alloc.c): an accounted object is
 * charged by the byte to its domain's owner record through this CPU's
 * byte stock, whole pages at a time from the counters, and its slab
 * keeps the record's id; no child cache is made; a free gives the bytes
 * back to this CPU's byte stock if it holds the record, else to the
 * record's leftover; a limit refuses objects; a removed domain hands
 * its record to the parent and is freed at once; the record goes with
 * its last object. `check` (the byte invariant) after each step. The
 * code under test is the kernel's own, with the design switched on
 * before the slab allocator starts.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mm/memcg/obj_owner.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "tests/unit/memcg_test.h"

#define OBJ_SIZE 200

static struct mem_cgroup *A;
static struct task *ta;
static struct kmem_cache *acct;  /* SLAB_ACCOUNT, 200-byte objects */

static int setup(void **state)
{
	A = test_mkdir("/cgroup/A");
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
	ta = test_task(A);
	acct = kmem_cache_create("acct", OBJ_SIZE, 0, SLAB_ACCOUNT);
	assert_non_null(acct);
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
	if (A)
		test_rmdir("/cgroup/A", 0);
	kmem_cache_destroy(acct);
	return memcg_test_teardown(state);
}

/* kmem_usage - memcg's kmem usage once every stock, page and byte, has
 * given its charge back. */
static uint64_t kmem_usage(struct mem_cgroup *memcg)
{
	drain_all_stock(NULL);
	return (uint64_t)res_counter_usage(&memcg->kmem);
}

static uint64_t slab_bytes(struct mem_cgroup *memcg)
{
	struct mem_cgroup_stat st;

	assert_int_equal(mem_cgroup_read_stat(memcg, &st), 0);
	return st.slab;
}

/* owner_id - the owner id the slab keeps for p, an object of c. */
static uint16_t owner_id(struct kmem_cache *c, void *p)
{
	return *slab_owner_id(c, slab_of(slab_page(p)), p);
}

/* One object: a page charged to A, 200 bytes to the object, the rest in
 * this CPU's byte stock; no child cache. Freed, its bytes go back to the
 * stock; a drain gives the stock's page back. */
static void test_charged_by_the_byte(void **state)
{
	struct obj_stock *stock = &memcg_stock_of(0)->obj;
	void *p = kmem_cache_alloc(acct, GFP_KERNEL);

	assert_non_null(p);
	assert_null(A->view.slab_caches[acct->memcg_params.id]);
	assert_ptr_equal(stock->cached, A->obj_owner);
	assert_int_equal(stock->nr_bytes, PAGE_SIZE - acct->size);
	assert_int_equal(A->obj_owner->nr_pages, 1);
	assert_int_equal(owner_id(acct, p), A->obj_owner->id);
	assert_check_ok();
	kmem_cache_free(acct, p);
	assert_int_equal(stock->nr_bytes, PAGE_SIZE);
	assert_check_ok();
	assert_int_equal(kmem_usage(A), 0);
	assert_null(stock->cached);

	/* Drained with an object alive, the page stays for it. */
	p = kmem_cache_alloc(acct, GFP_KERNEL);
	assert_non_null(p);
	assert_int_equal(kmem_usage(A), PAGE_SIZE);
	assert_int_equal(slab_bytes(A), acct->size);
	assert_check_ok();
	kmem_cache_free(acct, p);
	assert_int_equal(kmem_usage(A), 0);
	assert_int_equal(slab_bytes(A), 0);
}

/* The byte stock: A's next object is charged from it, with no page
 * charged; the root's tasks take objects charged to nobody; B's charge
 * makes the stock B's, A's bytes going back to A's record, and A's
 * object freed then gives its bytes to the record too. */
static void test_byte_stock(void **state)
{
	struct obj_stock *stock = &memcg_stock_of(0)->obj;
	struct mem_cgroup *B = test_mkdir("/cgroup/B");
	struct obj_owner *a = A->obj_owner;
	struct task *tb;
	void *p, *q, *r;

	test_write("/cgroup/B/memory.kmem.limit_in_bytes", "1M", 0);
	tb = test_task(B);
	assert_non_null(p = kmem_cache_alloc(acct, GFP_KERNEL));
	kmem_cache_free(acct, p);
	assert_int_equal(owner_id(acct, p), 0);
	assert_ptr_equal(stock->cached, a);
	assert_int_equal(stock->nr_bytes, PAGE_SIZE);

	host_set_current(NULL);  /* the root's: charged to nobody */
	assert_non_null(r = kmem_cache_alloc(acct, GFP_KERNEL));
	assert_int_equal(owner_id(acct, r), 0);
	assert_int_equal(stock->nr_bytes, PAGE_SIZE);
	host_set_current(ta);
	assert_non_null(p = kmem_cache_alloc(acct, GFP_KERNEL));
	assert_int_equal(stock->nr_bytes, PAGE_SIZE - acct->size);
	assert_int_equal(a->nr_pages, 1);  /* no page charged */
	assert_int_equal(owner_id(acct, p), a->id);

	host_set_current(tb);
	assert_non_null(q = kmem_cache_alloc(acct, GFP_KERNEL));
	assert_ptr_equal(stock->cached, B->obj_owner);
	assert_int_equal(a->nr_bytes, PAGE_SIZE - acct->size);
	kmem_cache_free(acct, q);
	assert_int_equal(stock->nr_bytes, PAGE_SIZE);
	assert_int_equal(owner_id(acct, q), 0);
	assert_check_ok();

	host_set_current(ta);
	kmem_cache_free(acct, p);  /* the stock is B's: to A's leftover */
	assert_ptr_equal(stock->cached, B->obj_owner);
	assert_int_equal(a->nr_bytes, 0);
	assert_int_equal(a->nr_pages, 0);  /* a whole page: uncharged */
	kmem_cache_free(acct, r);
	assert_check_ok();
	assert_int_equal(kmem_usage(A), 0);
	assert_int_equal(kmem_usage(B), 0);
	test_task_exit(tb);
	test_rmdir("/cgroup/B", 0);
}

/* Objects of the root's tasks have no owner; domains share slabs. */
static void test_shared_slabs(void **state)
{
	void *mine = kmem_cache_alloc(acct, GFP_KERNEL), *roots;

	host_set_current(NULL);
	roots = kmem_cache_alloc(acct, GFP_KERNEL);
	host_set_current(ta);
	assert_non_null(mine);
	assert_non_null(roots);
	assert_ptr_equal(virt_to_page(mine), virt_to_page(roots));
	assert_int_equal(acct->num_slabs, 1);
	assert_check_ok();
	kmem_cache_free(acct, roots);
	kmem_cache_free(acct, mine);
}

/* Freed on another CPU, whose stock does not hold A's record: the bytes
 * go to the record's leftover, and the page stays charged until the
 * first CPU's stock is drained too. */
static void test_free_on_another_cpu(void **state)
{
	void *p = kmem_cache_alloc(acct, GFP_KERNEL);

	assert_non_null(p);
	host_set_cpu(1);
	kmem_cache_free(acct, p);  /* the long way: not CPU 1's slab */
	host_set_cpu(0);
	assert_int_equal(owner_id(acct, p), 0);
	assert_null(memcg_stock_of(1)->obj.cached);
	assert_int_equal(A->obj_owner->nr_bytes, acct->size);
	assert_int_equal(A->obj_owner->nr_pages, 1);
	assert_check_ok();
	assert_int_equal(kmem_usage(A), 0);
	assert_int_equal(A->obj_owner->nr_pages, 0);
}

/* A kmem limit refuses objects once another page does not fit. */
static void test_limit_refuses(void **state)
{
	enum { MAX = 64 };
	void *objs[MAX];
	int n = 0;

	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "8K", 0);
	while (n < MAX && (objs[n] = kmem_cache_alloc(acct, GFP_KERNEL)))
		n++;
	assert_int_equal(n, 2 * PAGE_SIZE / acct->size);
	assert_true(res_counter_usage(&A->kmem) <= 8192);
	assert_check_ok();
	while (n)
		kmem_cache_free(acct, objs[--n]);
	test_write("/cgroup/A/memory.kmem.limit_in_bytes", "1M", 0);
}

/* rmdir of a domain whose objects live on: its record moves to the
 * parent (use_hierarchy), with its charge; the domain is freed at once;
 * the last object takes the record with it. */
static void test_reparent(void **state)
{
	struct mem_cgroup *P = test_mkdir("/cgroup/P"), *C;
	struct obj_owner *owner;
	struct task *tc;
	void *p[3];
	unsigned int id;

	test_write("/cgroup/P/memory.use_hierarchy", "1", 0);
	test_write("/cgroup/P/memory.kmem.limit_in_bytes", "1M", 0);
	C = test_mkdir("/cgroup/P/C");
	tc = test_task(C);
	host_set_current(tc);
	for (int i = 0; i < 3; i++)
		assert_non_null(p[i] = kmem_cache_alloc(acct, GFP_KERNEL));
	owner = C->obj_owner;
	id = owner->id;
	assert_int_equal(kmem_usage(C), PAGE_SIZE);
	assert_int_equal(kmem_usage(P), PAGE_SIZE);

	host_set_current(ta);
	test_task_exit(tc);
	test_rmdir("/cgroup/P/C", 0);
	assert_int_equal(mem_cgroup_nr_dying(), 0);  /* freed at once */
	assert_ptr_equal(obj_owner_of(id), owner);
	assert_ptr_equal(owner->memcg, P);
	assert_int_equal(kmem_usage(P), PAGE_SIZE);
	assert_int_equal(slab_bytes(P), 3 * acct->size);
	assert_check_ok();

	for (int i = 0; i < 3; i++)
		kmem_cache_free(acct, p[i]);
	drain_all_stock(NULL);
	assert_null(obj_owner_of(id));  /* its last object went */
	assert_int_equal(kmem_usage(P), 0);
	assert_check_ok();
	test_rmdir("/cgroup/P", 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

static int group_setup(void **state)
{
	memcg_slab_set_objects(true);  /* before mm_init lays slabs out */
	return memcg_test_setup(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_charged_by_the_byte),
		T(test_byte_stock),
		T(test_shared_slabs),
		T(test_free_on_another_cpu),
		T(test_limit_refuses),
		T(test_reparent),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
