// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_slab.c - host tests of the slab allocator and kmalloc
 * (mm/slab.c, mm/slab_alloc.c, mm/slab_check.c): objects are distinct and
 * aligned, freed objects are reused, empty slabs go back to the buddy
 * allocator, kmalloc size classes and large kmallocs, misuse panics (the
 * debug build's poison included), `check`'s invariants, and several
 * threads on one cache.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mm/buddy.h"
#include "mm/meminfo.h"
#include "mm/pcp.h"
#include "mm/slab.h"
#include "tests/unit/host_mem.h"

#define MEM_SIZE (32ul << 20)

static int setup(void **state)
{
	nr_cpus = 1;
	host_set_cpu(0);
	slab_debug = false;
	host_mem_init(MEM_SIZE);
	return 0;
}

static void shrink_all(void)
{
	struct kmem_cache *c;

	list_for_each_entry(c, &slab_caches, list)
		kmem_cache_shrink(c);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* no two of n objects of size bytes overlap */
static void assert_disjoint(void **objs, int n, size_t size)
{
	void **sorted = malloc(n * sizeof(*sorted));

	memcpy(sorted, objs, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_ptr);
	for (int i = 1; i < n; i++)
		assert_true((char *)sorted[i - 1] + size <= (char *)sorted[i]);
	free(sorted);
}

static void test_cache_layout(void **state)
{
	struct kmem_cache *c = kmem_cache_create("test-100", 100, 0, 0);
	struct kmem_cache *big = kmem_cache_create("test-3000", 3000, 0, 0);
	struct kmem_cache *it;
	struct slabinfo info;
	bool listed = false;

	assert_non_null(c);
	assert_string_equal(c->name, "test-100");
	get_slabinfo(c, &info);
	assert_int_equal(info.objsize, 104);      /* padded to 8 */
	assert_int_equal(info.objperslab, 39);    /* (4096 - 16) / 104 */
	assert_int_equal(info.pagesperslab, 1);
	assert_int_equal(info.num_slabs, 0);
	/* 3000 bytes: order 0 and 1 waste 26%, order 2 8% (5 objects) */
	get_slabinfo(big, &info);
	assert_int_equal(info.pagesperslab, 4);
	assert_int_equal(info.objperslab, 5);

	list_for_each_entry(it, &slab_caches, list)
		listed |= it == c;
	assert_true(listed);
	kmem_cache_destroy(c);
	kmem_cache_destroy(big);
	listed = false;
	list_for_each_entry(it, &slab_caches, list)
		listed |= it == c;
	assert_false(listed);

	assert_null(kmem_cache_create("huge", 40000, 0, 0));
	assert_null(kmem_cache_create("badalign", 64, 24, 0));
	HOST_EXPECT_PANIC(kmem_cache_create("huge", 40000, 0, SLAB_PANIC),
			  "cannot create cache huge");
}

/* Objects are distinct; slabs are taken as needed and given back empty. */
static void test_alloc_free_release(void **state)
{
	struct kmem_cache *c = kmem_cache_create("test-100", 100, 0, 0);
	unsigned long start = nr_free_pages(), slab_start = nr_slab_pages;
	struct slabinfo info;
	void *objs[39 * 3];

	for (int i = 0; i < 39 * 3; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		assert_non_null(objs[i]);
		assert_true(host_mem_contains(objs[i], 100));
		assert_int_equal((uintptr_t)objs[i] % 8, 0);
		memset(objs[i], i, 100);
	}
	assert_disjoint(objs, 39 * 3, 100);
	for (int i = 0; i < 39 * 3; i++)
		assert_int_equal(((unsigned char *)objs[i])[99], i);
	get_slabinfo(c, &info);
	assert_int_equal(info.num_slabs, 3);
	assert_int_equal(info.active_objs, 39 * 3);
	assert_int_equal(info.num_objs, 39 * 3);
	assert_int_equal(nr_free_pages(), start - 3);
	assert_int_equal(nr_slab_pages, slab_start + 3);
	assert_true(virt_to_page(objs[0])->flags & PG_slab);

	/* one more object needs a fourth slab */
	void *extra = kmem_cache_alloc(c, GFP_KERNEL);
	assert_int_equal(nr_free_pages(), start - 4);
	kmem_cache_free(c, extra);  /* its slab is empty: kept */
	assert_int_equal(nr_free_pages(), start - 4);

	for (int i = 0; i < 39 * 3; i++)
		kmem_cache_free(c, objs[i]);
	get_slabinfo(c, &info);
	assert_int_equal(info.active_objs, 0);
	/* kept: this CPU's slab, and one empty slab on the list */
	assert_int_equal(info.num_slabs, 2);
	assert_int_equal(info.active_slabs, 0);
	assert_int_equal(nr_free_pages(), start - 2);
	kmem_cache_shrink(c);
	assert_int_equal(nr_free_pages(), start);
	assert_int_equal(nr_slab_pages, slab_start);
	kmem_cache_destroy(c);
}

static void test_reuse_and_zero(void **state)
{
	struct kmem_cache *c = kmem_cache_create("test-48", 48, 0, 0);
	void *a = kmem_cache_alloc(c, GFP_KERNEL), *b;

	memset(a, 0x5a, 48);
	kmem_cache_free(c, a);
	b = kmem_cache_alloc(c, __GFP_ZERO);
	assert_ptr_equal(a, b);  /* the last freed object is reused first */
	for (int i = 0; i < 48; i++)
		assert_int_equal(((unsigned char *)b)[i], 0);
	kmem_cache_free(c, b);
	kmem_cache_destroy(c);
}

static void test_alignment(void **state)
{
	struct kmem_cache *hw = kmem_cache_create("hw", 40, 0,
						  SLAB_HWCACHE_ALIGN);
	struct kmem_cache *a256 = kmem_cache_create("a256", 300, 256, 0);
	void *objs[40];

	for (int i = 0; i < 40; i++) {
		objs[i] = kmem_cache_alloc(hw, GFP_KERNEL);
		assert_int_equal((uintptr_t)objs[i] % 64, 0);
	}
	assert_disjoint(objs, 40, 64);
	for (int i = 0; i < 40; i++)
		kmem_cache_free(hw, objs[i]);
	for (int i = 0; i < 40; i++) {
		objs[i] = kmem_cache_alloc(a256, GFP_KERNEL);
		assert_int_equal((uintptr_t)objs[i] % 256, 0);
	}
	assert_disjoint(objs, 40, 300);
	for (int i = 0; i < 40; i++)
		kmem_cache_free(a256, objs[i]);
	kmem_cache_destroy(hw);
	kmem_cache_destroy(a256);
}

static void test_kmalloc_classes(void **state)
{
	unsigned long start = nr_free_pages();
	static void *objs[2049];

	for (size_t size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size++) {
		size_t class = 8;

		while (class < size)
			class *= 2;
		objs[size] = kmalloc(size, GFP_KERNEL);
		assert_non_null(objs[size]);
		assert_int_equal(ksize(objs[size]), class);
		assert_int_equal((uintptr_t)objs[size] % 8, 0);
		memset(objs[size], 0xee, size);
	}
	objs[0] = kmalloc(0, GFP_KERNEL);
	assert_non_null(objs[0]);
	assert_int_equal(ksize(objs[0]), 8);
	for (size_t size = 0; size <= KMALLOC_MAX_CACHE_SIZE; size++)
		kfree(objs[size]);
	kfree(NULL);

	/* everything came back but at most one empty slab per cache */
	assert_true(start - nr_free_pages() <= 64);  /* 256 KiB */
	shrink_all();
	assert_int_equal(nr_free_pages(), start);
}

static void test_kmalloc_large(void **state)
{
	unsigned long start = nr_free_pages();
	struct { size_t size; unsigned int order; } cases[] = {
		{2049, 0}, {4096, 0}, {4097, 1}, {5000, 1}, {16384, 2},
		{100000, 5}, {4ul << 20, MAX_ORDER},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *p = kmalloc(cases[i].size, __GFP_ZERO);
		struct page *page;

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % PAGE_SIZE, 0);
		page = virt_to_page(p);
		assert_int_equal(page->flags, PG_head);
		assert_int_equal(page->order, cases[i].order);
		assert_int_equal(ksize(p), PAGE_SIZE << cases[i].order);
		assert_int_equal(p[cases[i].size - 1], 0);
		kfree(p);
		assert_int_equal(nr_free_pages(), start);
	}
	assert_null(kmalloc((4ul << 20) + 1, __GFP_NOWARN));
	assert_null(kmalloc(SIZE_MAX, __GFP_NOWARN));
}

static void test_slab_meminfo(void **state)
{
	char buf[256];
	void *p[200];

	for (int i = 0; i < 200; i++)
		p[i] = kmalloc(1024, GFP_KERNEL);  /* 7 per order-1 slab */
	meminfo_show(buf, sizeof(buf));
	/* 29 slabs of 2 pages: 232 kB */
	assert_int_equal(nr_slab_pages, 58);
	assert_non_null(strstr(buf, "Slab:                232 kB\n"));
	for (int i = 0; i < 200; i++)
		kfree(p[i]);
	/* Kept: this CPU's slab, and one empty slab on the cache's list. */
	assert_int_equal(nr_slab_pages, 4);
	shrink_all();
	assert_int_equal(nr_slab_pages, 0);
}

/* Each misuse below is on purpose, and must panic: the analyser, which
 * takes kmalloc/kfree for malloc/free, would report every one.
 * NOLINTBEGIN(clang-analyzer-unix.Malloc) */
static void test_misuse(void **state)
{
	struct kmem_cache *a = kmem_cache_create("cache-a", 64, 0, 0);
	struct kmem_cache *b = kmem_cache_create("cache-b", 64, 0, 0);
	char *obj = kmem_cache_alloc(a, GFP_KERNEL);
	char *other = kmem_cache_alloc(a, GFP_KERNEL);  /* a second object */
	char *k = kmalloc(100, GFP_KERNEL);
	struct page *page = alloc_page(GFP_KERNEL);
	int on_stack;

	HOST_EXPECT_PANIC(kmem_cache_free(b, obj), "belongs to cache cache-a");
	HOST_EXPECT_PANIC(kfree(obj + 8), "not the start of an object");
	HOST_EXPECT_PANIC(kfree(k + 1), "not the start of an object");
	HOST_EXPECT_PANIC(kfree(&on_stack), "not a kernel address");
	HOST_EXPECT_PANIC(kfree((char *)page_address(page) + 64),
			  "was not returned by kmalloc");
	HOST_EXPECT_PANIC(kmem_cache_free(a, page_address(page)),
			  "not a slab object");
	HOST_EXPECT_PANIC(free_pages(virt_to_page(obj), 0), "slab");
	HOST_EXPECT_PANIC(kmem_cache_destroy(a), "still has 2 objects");

	/* the checks above come before the cache lock is taken, so the
	 * cache still works; the double-free check holds the lock (the
	 * next test's setup starts afresh) */
	kmem_cache_free(a, other);
	kmem_cache_free(a, obj);
	HOST_EXPECT_PANIC(kmem_cache_free(a, obj), "double free");
}
/* NOLINTEND(clang-analyzer-unix.Malloc) */

static void test_debug_double_free_and_poison(void **state)
{
	struct kmem_cache *c;
	char *x, *y;

	slab_debug = true;
	host_mem_init(MEM_SIZE);
	c = kmem_cache_create("dbg", 32, 0, 0);
	x = kmem_cache_alloc(c, GFP_KERNEL);
	y = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, x);
	assert_int_equal((unsigned char)x[31], SLAB_POISON_FREE);
	kmem_cache_free(c, y);
	/* x is not the head of the free list: found by the search */
	HOST_EXPECT_PANIC(kmem_cache_free(c, x), "double free");

	host_mem_init(MEM_SIZE);
	c = kmem_cache_create("dbg", 32, 0, 0);
	x = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, x);
	x[20] = 1;  /* use after free */
	HOST_EXPECT_PANIC(kmem_cache_alloc(c, GFP_KERNEL), "use after free");
	slab_debug = false;
}

/* --- the CPU slabs -------------------------------------------------------- */

static struct page *page_of(void *obj)
{
	return virt_to_page(obj);
}

/* An object freed on another CPU goes to its slab's own list, and comes
 * back to the owner once the owner's list runs dry. */
static void test_cpu_slab_remote_free(void **state)
{
	struct kmem_cache *c;
	char *x, *y, *obj = NULL;
	struct page *page;
	unsigned long on_list;
	char text[512];

	nr_cpus = 2;
	c = kmem_cache_create("pcpu", 64, 0, 0);
	x = kmem_cache_alloc(c, GFP_KERNEL);
	y = kmem_cache_alloc(c, GFP_KERNEL);
	page = page_of(x);
	assert_ptr_equal(c->cpu_slab[0].page, page);
	assert_true(page->flags & PG_slab_cpu);
	on_list = c->cpu_slab[0].nr_free;
	assert_int_equal(on_list, c->num - 2);
	assert_int_equal(kmem_cache_in_use(c), 2);

	host_set_cpu(1);
	kmem_cache_free(c, x);            /* not CPU 1's slab */
	assert_null(c->cpu_slab[1].page);
	assert_int_equal(c->cpu_slab[0].nr_free, on_list);
	assert_int_equal(page->slab_inuse, c->num - 1);
	assert_int_equal(kmem_cache_in_use(c), 1);
	assert_int_equal(slab_check(text, sizeof(text)), 0);

	/* CPU 0 empties its list, then takes x back from the slab. */
	host_set_cpu(0);
	for (unsigned long i = 0; i < on_list; i++)
		assert_ptr_equal(page_of(kmem_cache_alloc(c, GFP_KERNEL)),
				 page);
	assert_null(c->cpu_slab[0].freelist);
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	assert_ptr_equal(obj, x);
	assert_ptr_equal(c->cpu_slab[0].page, page);
	assert_int_equal(kmem_cache_in_use(c), c->num);
	assert_int_equal(slab_check(text, sizeof(text)), 0);
	/* the next one needs a new slab; the full one leaves the CPU */
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	assert_ptr_not_equal(page_of(obj), page);
	assert_false(page->flags & PG_slab_cpu);
	assert_int_equal(slab_check(text, sizeof(text)), 0);
	(void)y;
}

/* A cache used alone keeps its CPU slab: no page per object. */
static void test_cpu_slab_no_churn(void **state)
{
	struct kmem_cache *c = kmem_cache_create("churn", 200, 0, 0);
	unsigned long free_pages;
	void *obj = kmem_cache_alloc(c, GFP_KERNEL);

	kmem_cache_free(c, obj);
	free_pages = nr_free_pages();
	for (int i = 0; i < 1000; i++) {
		obj = kmem_cache_alloc(c, GFP_KERNEL);
		assert_non_null(obj);
		kmem_cache_free(c, obj);
		assert_int_equal(nr_free_pages(), free_pages);
	}
	assert_int_equal(c->num_slabs, 1);
	assert_int_equal(kmem_cache_in_use(c), 0);
	kmem_cache_destroy(c);
}

/* kmem_cache_shrink takes back what every CPU holds; slabinfo counts
 * the objects on CPU lists as free. */
static void test_cpu_slab_flush(void **state)
{
	struct kmem_cache *c;
	unsigned long start;
	struct slabinfo info;
	void *a, *b;
	char text[512];

	nr_cpus = 2;
	c = kmem_cache_create("flush", 128, 0, 0);
	start = nr_free_pages();
	a = kmem_cache_alloc(c, GFP_KERNEL);
	host_set_cpu(1);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	assert_ptr_not_equal(page_of(a), page_of(b));
	get_slabinfo(c, &info);
	assert_int_equal(info.active_objs, 2);
	assert_int_equal(info.num_slabs, 2);
	assert_int_equal(info.active_slabs, 2);
	kmem_cache_free(c, b);
	host_set_cpu(0);
	kmem_cache_free(c, a);
	get_slabinfo(c, &info);
	assert_int_equal(info.active_objs, 0);
	assert_int_equal(info.active_slabs, 0);
	assert_int_equal(info.num_slabs, 2);   /* both CPU slabs, empty */
	assert_int_equal(slab_check(text, sizeof(text)), 0);

	kmem_cache_shrink(c);
	assert_null(c->cpu_slab[0].page);
	assert_null(c->cpu_slab[1].page);
	assert_int_equal(c->num_slabs, 0);
	assert_int_equal(nr_free_pages(), start);
	assert_int_equal(slab_check(text, sizeof(text)), 0);

	/* destroy takes back the CPU slabs itself */
	host_set_cpu(1);
	kmem_cache_free(c, kmem_cache_alloc(c, GFP_KERNEL));
	host_set_cpu(0);
	assert_non_null(c->cpu_slab[1].page);
	kmem_cache_destroy(c);
	assert_int_equal(nr_free_pages(), start);
}

/* A CPU going idle gives back its empty CPU slabs, and only those: a
 * root cache keeps one empty slab, the rest go to the buddy allocator. */
static void test_cpu_slab_idle(void **state)
{
	struct kmem_cache *c;
	unsigned long start;
	void *a, *b, *kept;
	char text[512];

	nr_cpus = 2;
	c = kmem_cache_create("idle", 128, 0, 0);
	start = nr_free_pages();
	kept = kmem_cache_alloc(c, GFP_KERNEL);
	host_set_cpu(1);
	a = kmem_cache_alloc(c, GFP_KERNEL);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, a);
	host_set_cpu(0);
	kmem_cache_free(c, b);  /* CPU 1's slab emptied by another CPU */

	slab_cpu_idle();        /* CPU 0's slab holds kept: it stays */
	assert_non_null(c->cpu_slab[0].page);
	host_set_cpu(1);
	slab_cpu_idle();
	host_set_cpu(0);
	assert_null(c->cpu_slab[1].page);
	assert_int_equal(c->num_slabs, 2);  /* kept's, and one empty */
	assert_int_equal(slab_check(text, sizeof(text)), 0);

	kmem_cache_free(c, kept);
	slab_cpu_idle();
	assert_null(c->cpu_slab[0].page);
	assert_int_equal(c->num_slabs, 1);  /* the one empty slab kept */
	assert_int_equal(slab_check(text, sizeof(text)), 0);
	kmem_cache_shrink(c);
	assert_int_equal(nr_free_pages(), start);
	kmem_cache_destroy(c);
}

/* check finds a CPU's count that does not match its list. */
static void test_cpu_slab_check(void **state)
{
	struct kmem_cache *c = kmem_cache_create("chk", 64, 0, 0);
	void *obj = kmem_cache_alloc(c, GFP_KERNEL);
	char text[512];

	assert_int_equal(slab_check(text, sizeof(text)), 0);
	c->cpu_slab[0].nr_free++;
	assert_true(slab_check(text, sizeof(text)) > 0);
	assert_non_null(strstr(text, "chk"));
	c->cpu_slab[0].nr_free--;
	assert_int_equal(slab_check(text, sizeof(text)), 0);
	kmem_cache_free(c, obj);
	kmem_cache_destroy(c);
}

/* With slab_debug every free searches every CPU's list: an object freed
 * on one CPU and again on another is a double free. */
static void test_cpu_slab_debug_double_free(void **state)
{
	struct kmem_cache *c;
	char *x;

	slab_debug = true;
	host_mem_init(MEM_SIZE);
	nr_cpus = 2;
	c = kmem_cache_create("dbg2", 64, 0, 0);
	x = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, x);            /* onto CPU 0's list */
	assert_ptr_equal(c->cpu_slab[0].freelist, x);
	host_set_cpu(1);
	HOST_EXPECT_PANIC(kmem_cache_free(c, x), "double free");
	host_set_cpu(0);
	slab_debug = false;
}

/* --- threads on one cache ------------------------------------------------- */

#define NTHREADS 4
static struct kmem_cache *shared_cache;

static void *slab_thread(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg, seed = cpu + 7;
	unsigned long *live[64] = {0};
	uintptr_t failures = 0;

	host_set_cpu(cpu);
	for (int it = 0; it < 20000; it++) {
		int slot = rand_r(&seed) % 64;

		if (live[slot]) {
			if (live[slot][0] != (cpu << 8 | slot) ||
			    live[slot][11] != (cpu << 8 | slot))
				failures++;
			if (slot & 1)
				kfree(live[slot]);
			else
				kmem_cache_free(shared_cache, live[slot]);
			live[slot] = NULL;
		} else {
			live[slot] = (slot & 1) ? kmalloc(96, GFP_KERNEL) :
				     kmem_cache_alloc(shared_cache, GFP_KERNEL);
			if (!live[slot]) {
				failures++;
				continue;
			}
			live[slot][0] = live[slot][11] = cpu << 8 | slot;
		}
	}
	for (int slot = 0; slot < 64; slot++) {
		if (slot & 1)
			kfree(live[slot]);
		else if (live[slot])
			kmem_cache_free(shared_cache, live[slot]);
	}
	return (void *)failures;
}

static void call_local_only(void (*fn)(void *), void *arg)
{
	fn(arg);
}

static void test_threads(void **state)
{
	pthread_t threads[NTHREADS];
	unsigned long start = nr_free_pages();

	nr_cpus = NTHREADS;
	host_call_function_hook = call_local_only;
	shared_cache = kmem_cache_create("shared", 96, 0, 0);
	for (uintptr_t i = 0; i < NTHREADS; i++)
		pthread_create(&threads[i], NULL, slab_thread, (void *)i);
	for (int i = 0; i < NTHREADS; i++) {
		void *failures;

		pthread_join(threads[i], &failures);
		assert_int_equal((uintptr_t)failures, 0);
	}
	host_call_function_hook = NULL;
	assert_int_equal(kmem_cache_in_use(shared_cache), 0);
	kmem_cache_destroy(shared_cache);
	shrink_all();
	assert_int_equal(nr_free_pages(), start);
}

/* Each thread frees the objects the next one allocated, all at once:
 * frees to other CPUs' slabs while those CPUs allocate. */
#define REMOTE_OBJS 200
static void *remote_objs[NTHREADS][REMOTE_OBJS];
static pthread_barrier_t remote_barrier;

static void *remote_thread(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	unsigned int next = (cpu + 1) % NTHREADS;

	host_set_cpu(cpu);
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < REMOTE_OBJS; i++)
			remote_objs[cpu][i] = kmalloc(64, GFP_KERNEL);
		pthread_barrier_wait(&remote_barrier);
		for (int i = 0; i < REMOTE_OBJS; i++)
			kfree(remote_objs[next][i]);
		pthread_barrier_wait(&remote_barrier);
	}
	return NULL;
}

static void test_threads_remote_free(void **state)
{
	pthread_t threads[NTHREADS];
	struct kmem_cache *c;
	unsigned long in_use = 0;
	char text[1024];

	nr_cpus = NTHREADS;
	list_for_each_entry(c, &slab_caches, list)
		in_use += kmem_cache_in_use(c);
	pthread_barrier_init(&remote_barrier, NULL, NTHREADS);
	for (uintptr_t i = 0; i < NTHREADS; i++)
		pthread_create(&threads[i], NULL, remote_thread, (void *)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&remote_barrier);
	host_set_cpu(0);
	assert_int_equal(slab_check(text, sizeof(text)), 0);
	list_for_each_entry(c, &slab_caches, list)
		in_use -= kmem_cache_in_use(c);
	assert_int_equal(in_use, 0);
	shrink_all();
	list_for_each_entry(c, &slab_caches, list)
		assert_null(c->cpu_slab[1].page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_cache_layout, setup),
		cmocka_unit_test_setup(test_alloc_free_release, setup),
		cmocka_unit_test_setup(test_reuse_and_zero, setup),
		cmocka_unit_test_setup(test_alignment, setup),
		cmocka_unit_test_setup(test_kmalloc_classes, setup),
		cmocka_unit_test_setup(test_kmalloc_large, setup),
		cmocka_unit_test_setup(test_slab_meminfo, setup),
		cmocka_unit_test_setup(test_misuse, setup),
		cmocka_unit_test_setup(test_debug_double_free_and_poison,
				       setup),
		cmocka_unit_test_setup(test_threads, setup),
		cmocka_unit_test_setup(test_cpu_slab_remote_free, setup),
		cmocka_unit_test_setup(test_cpu_slab_no_churn, setup),
		cmocka_unit_test_setup(test_cpu_slab_flush, setup),
		cmocka_unit_test_setup(test_cpu_slab_idle, setup),
		cmocka_unit_test_setup(test_cpu_slab_check, setup),
		cmocka_unit_test_setup(test_cpu_slab_debug_double_free,
				       setup),
		cmocka_unit_test_setup(test_threads_remote_free, setup),
	};

	setenv("HOST_QUIET", "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
