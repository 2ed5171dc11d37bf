// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_pcp.c - host tests of the per-CPU page lists (mm/pcp.c):
 * refill and drain in batches, several fake CPUs (host_set_cpu), draining
 * other CPUs when memory runs out, and real threads allocating at once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mm/buddy.h"
#include "mm/pcp.h"
#include "tests/unit/host_mem.h"

#define MEM_SIZE (64ul << 20)
#define NCPUS 4

static int setup(void **state)
{
	nr_cpus = NCPUS;
	host_set_cpu(0);
	host_call_function_hook = NULL;
	host_mem_init(MEM_SIZE);
	return 0;
}

static unsigned long buddy_free(void)
{
	return zone_normal.free_pages;
}

static void test_sizes(void **state)
{
	/* 64 MiB: about 16200 frames -> batch 3, high 18 (Linux's formula) */
	assert_int_equal(pcp_lists[0].batch, 3);
	assert_int_equal(pcp_lists[0].high, 18);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		assert_int_equal(pcp_lists[cpu].count, 0);
		assert_int_equal(pcp_lists[cpu].batch, pcp_lists[0].batch);
	}
}

/* An empty list is refilled with one batch; a full one drains a batch. */
static void test_refill_and_drain(void **state)
{
	struct per_cpu_pages *pcp = &pcp_lists[0];
	unsigned long total = nr_free_pages();
	struct page *pages[64] = {NULL};
	int batch = pcp->batch, high = pcp->high;

	pages[0] = alloc_page(GFP_KERNEL);
	assert_int_equal(pcp->count, batch - 1);
	assert_int_equal(buddy_free(), total - batch);
	assert_int_equal(nr_free_pages(), total - 1);
	assert_int_equal(pages[0]->flags, PG_head);

	/* the rest of the batch comes from the list, no buddy visit */
	for (int i = 1; i < batch; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	assert_int_equal(pcp->count, 0);
	assert_int_equal(buddy_free(), total - batch);
	for (int i = batch; i < high + 2; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	drain_local_pages();  /* the list holds what the last refill left */
	assert_int_equal(pcp->count, 0);

	/* free high-1 pages: all stay on the list */
	for (int i = 0; i < high - 1; i++)
		free_pages(pages[i], 0);
	assert_int_equal(pcp->count, high - 1);
	assert_true(pages[0]->flags & PG_pcp);
	/* the high-th drains the batch of coldest pages */
	free_pages(pages[high - 1], 0);
	assert_int_equal(pcp->count, high - batch);
	assert_int_equal(pages[0]->flags & PG_pcp, 0);      /* coldest: gone */
	assert_true(pages[high - 1]->flags & PG_pcp);        /* hottest: kept */

	/* the last freed page is the next allocated */
	assert_ptr_equal(alloc_page(GFP_KERNEL), pages[high - 1]);
	free_pages(pages[high - 1], 0);
	free_pages(pages[high], 0);
	free_pages(pages[high + 1], 0);
	assert_int_equal(nr_free_pages(), total);
	drain_local_pages();
	assert_int_equal(pcp->count, 0);
	assert_int_equal(buddy_free(), total);
}

/* Each CPU has its own list; nr_free_pages counts them all. */
static void test_several_cpus(void **state)
{
	unsigned long total = nr_free_pages();
	struct page *pages[NCPUS][5];

	for (int cpu = 0; cpu < NCPUS; cpu++) {
		host_set_cpu(cpu);
		for (int i = 0; i < 5; i++)
			pages[cpu][i] = alloc_page(GFP_KERNEL);
	}
	assert_int_equal(nr_free_pages(), total - 5 * NCPUS);
	/* free every page on another CPU than the one it came from */
	for (int cpu = 0; cpu < NCPUS; cpu++) {
		host_set_cpu((cpu + 1) % NCPUS);
		for (int i = 0; i < 5; i++)
			free_pages(pages[cpu][i], 0);
	}
	host_set_cpu(0);
	assert_int_equal(nr_free_pages(), total);
	assert_int_equal(pcp_nr_pages(), nr_free_pages() - buddy_free());
	for (int cpu = 0; cpu < NCPUS; cpu++)
		assert_true(pcp_lists[cpu].count > 0);

	drain_all_pages();
	for (int cpu = 0; cpu < NCPUS; cpu++)
		assert_int_equal(pcp_lists[cpu].count, 0);
	assert_int_equal(buddy_free(), total);
	/* drained pages merged back: nothing of order 0 is left */
	assert_int_equal(zone_normal.free_area[0].nr_free, 0);
}

/*
 * When the buddy allocator is empty but pages sit on other CPUs' lists, an
 * allocation drains them (drain_all_pages) and succeeds.
 */
static void test_failure_drains_other_cpus(void **state)
{
	struct page **pages = calloc(totalram_pages + 1, sizeof(*pages));
	unsigned long n = 0;

	while ((pages[n] = alloc_pages(__GFP_NOWARN, 0)) != NULL)
		n++;
	assert_int_equal(n, totalram_pages);

	host_set_cpu(2);
	free_pages(pages[--n], 0);
	free_pages(pages[--n], 0);
	host_set_cpu(0);
	assert_int_equal(pcp_lists[2].count, 2);
	assert_int_equal(nr_free_pages(), 2);

	pages[n] = alloc_page(GFP_KERNEL);
	assert_non_null(pages[n]);
	n++;
	assert_int_equal(pcp_lists[2].count, 0);
	pages[n] = alloc_page(__GFP_NOFAIL);  /* NOFAIL: found after a drain */
	assert_non_null(pages[n]);
	n++;
	assert_null(alloc_page(__GFP_NOWARN));

	/* __GFP_ATOMIC may not wait for other CPUs: only its own list */
	host_set_cpu(1);
	free_pages(pages[--n], 0);
	host_set_cpu(0);
	assert_null(alloc_page(__GFP_ATOMIC | __GFP_NOWARN));
	host_set_cpu(1);
	pages[n] = alloc_page(__GFP_ATOMIC);
	assert_non_null(pages[n]);
	n++;
	host_set_cpu(0);

	for (unsigned long i = 0; i < n; i++)
		free_pages(pages[i], 0);
	assert_int_equal(nr_free_pages(), totalram_pages);
	free(pages);
}

/* --- threads: four "CPUs" allocating and freeing at once ---------------- */

#define THREAD_ITERATIONS 20000
#define THREAD_LIVE 32

/* Runs fn only for the calling thread's CPU: other threads own theirs. */
static void call_local_only(void (*fn)(void *), void *arg)
{
	fn(arg);
}

static void *cpu_thread(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	struct { struct page *page; unsigned int order; } live[THREAD_LIVE];
	unsigned int seed = cpu + 1;
	uintptr_t failures = 0;

	host_set_cpu(cpu);
	memset(live, 0, sizeof(live));
	for (int it = 0; it < THREAD_ITERATIONS; it++) {
		int slot = rand_r(&seed) % THREAD_LIVE;

		if (live[slot].page) {
			unsigned long *tag = page_address(live[slot].page);
			unsigned long want = ((unsigned long)cpu << 32) | slot;
			size_t last = (PAGE_SIZE << live[slot].order) / 8 - 1;

			if (tag[0] != want || tag[last] != want)
				failures++;
			free_pages(live[slot].page, live[slot].order);
			live[slot].page = NULL;
		} else {
			unsigned int order = rand_r(&seed) % 4 == 0 ?
					     rand_r(&seed) % 4 : 0;
			struct page *page = alloc_pages(GFP_KERNEL, order);
			unsigned long *tag;

			if (!page) {
				failures++;
				continue;
			}
			tag = page_address(page);
			tag[0] = ((unsigned long)cpu << 32) | slot;
			tag[(PAGE_SIZE << order) / 8 - 1] = tag[0];
			live[slot].page = page;
			live[slot].order = order;
		}
	}
	for (int slot = 0; slot < THREAD_LIVE; slot++)
		if (live[slot].page)
			free_pages(live[slot].page, live[slot].order);
	return (void *)failures;
}

static void test_threads(void **state)
{
	pthread_t threads[NCPUS];
	unsigned long total = nr_free_pages();

	host_call_function_hook = call_local_only;
	for (uintptr_t cpu = 0; cpu < NCPUS; cpu++)
		assert_int_equal(pthread_create(&threads[cpu], NULL,
						cpu_thread, (void *)cpu), 0);
	for (int cpu = 0; cpu < NCPUS; cpu++) {
		void *failures;

		pthread_join(threads[cpu], &failures);
		assert_int_equal((uintptr_t)failures, 0);
	}
	host_call_function_hook = NULL;
	assert_int_equal(nr_free_pages(), total);
	drain_all_pages();
	assert_int_equal(buddy_free(), total);
	assert_int_equal(zone_normal.free_area[0].nr_free, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_sizes, setup),
		cmocka_unit_test_setup(test_refill_and_drain, setup),
		cmocka_unit_test_setup(test_several_cpus, setup),
		cmocka_unit_test_setup(test_failure_drains_other_cpus, setup),
		cmocka_unit_test_setup(test_threads, setup),
	};

	setenv("HOST_QUIET", "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
