// SPDX-License-Identifier: MIT
/*
 * kernel/bench/bench_pages.c - what accounting costs the page allocator.
 *
 *   page_order0            alloc+free of one page, static key off
 *   page_order0_root       the same with __GFP_KMEMCG, key on, a task of
 *                          the root domain (never charged)
 *   page_order0_accounted  key on, a task of an accounted domain: the
 *                          charge is served from the per-CPU stock
 *   page_order0_nostock    the same with the stock disabled: every page
 *                          charges the shared res and kmem counters
 *   stack_order2_accounted a 16 KiB kernel stack, accounted
 *
 * In a build with kmem accounting compiled out (make KMEM=0) the same
 * names measure the bare allocator: `make bench` prints the ratios.
 *
 * To charge a domain without a task of its own, the benchmark makes it
 * the active domain for the duration (bench_time_as, set_active_memcg),
 * as `run` does for a new task, then puts the previous one back.
 */
#include <errno.h>

#include "arch/x86_64/asm/cpu.h"
#include "kernel/bench/bench.h"
#include "kernel/sched/fork.h"
#include "kernel/base/platform.h"
#include "kernel/task/task.h"
#include "mm/buddy.h"
#include "mm/page.h"
#include "mm/memcg/kmem_hooks.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/stock.h"

static void op_page_order0(void *arg)
{
	gfp_t gfp = *(gfp_t *)arg;
	struct page *page = alloc_pages(gfp, 0);
	if (!page)
		panic("bench: order-0 allocation failed");
	if (gfp & __GFP_KMEMCG)
		free_accounted_pages(page, 0);
	else
		free_pages(page, 0);
}

static void op_stack_order2(void *arg)
{
	struct page *page = alloc_pages(THREADINFO_GFP_ACCOUNTED, THREAD_ORDER);
	if (!page)
		panic("bench: order-2 allocation failed");
	free_accounted_pages(page, THREAD_ORDER);
}

static void bench_page_order0(void)
{
	gfp_t gfp = GFP_KERNEL;
	struct bench_result r = bench_time(op_page_order0, &gfp);
	bench_print("page_order0", &r);
}
BENCH(page_order0);

static void bench_page_order0_root(void)
{
	gfp_t gfp = GFP_ACCOUNT;
	static_key_slow_inc(&memcg_kmem_enabled_key);
	struct bench_result r =
		bench_time_as(root_mem_cgroup, op_page_order0, &gfp);
	static_key_slow_dec(&memcg_kmem_enabled_key);
	bench_print("page_order0_root", &r);
}
BENCH(page_order0_root);


static void accounted(struct mem_cgroup *memcg)
{
	gfp_t gfp = GFP_ACCOUNT;
	struct bench_result r = bench_time_as(memcg, op_page_order0, &gfp);
	bench_print("page_order0_accounted", &r);
}

static void bench_page_order0_accounted(void)
{
	with_accounted_domain(accounted);
}
BENCH(page_order0_accounted);

static void nostock(struct mem_cgroup *memcg)
{
	gfp_t gfp = GFP_ACCOUNT;
	memcg_stock_set_enabled(false);
	struct bench_result r = bench_time_as(memcg, op_page_order0, &gfp);
	memcg_stock_set_enabled(true);
	bench_print("page_order0_nostock", &r);
}

static void bench_page_order0_nostock(void)
{
	with_accounted_domain(nostock);
}
BENCH(page_order0_nostock);

/*
 * hold_stack_buddy - pin the state of the free lists that the order-2
 * benchmark runs in. Freeing a block merges it with its buddy if that is
 * free, and the next allocation splits the merged block again: how deep
 * that goes depends on the memory layout, which moves with every build
 * (two builds of the same allocator gave 363 and 485 instructions). So
 * find a block whose buddy we can keep allocated, and free the block last:
 * it heads the order-2 free list, every allocation in the loop takes it,
 * every free puts it back without a merge. What is measured is then the
 * allocator's own path, and the accounting's, the same in every build.
 * Returns the held buddy (give it back with free_pages), or NULL if no
 * pair turned up.
 */
#define STACK_PIN_TRIES 64
static struct page *hold_stack_buddy(void)
{
	static struct page *got[STACK_PIN_TRIES];
	const uint64_t pair = 1ull << THREAD_ORDER;
	int n, block = -1, buddy = -1;

	for (n = 0; n < STACK_PIN_TRIES && buddy < 0; n++) {
		got[n] = alloc_pages(GFP_KERNEL, THREAD_ORDER);
		if (!got[n])
			break;
		for (int i = 0; i < n; i++)
			if ((page_to_pfn(got[i]) ^ page_to_pfn(got[n])) ==
			    pair) {
				block = i;
				buddy = n;
				break;
			}
	}
	for (int i = 0; i < n; i++)
		if (i != block && i != buddy && got[i])
			free_pages(got[i], THREAD_ORDER);
	if (buddy < 0)
		return NULL;
	free_pages(got[block], THREAD_ORDER);  /* last: the list's head */
	return got[buddy];
}

static void stack(struct mem_cgroup *memcg)
{
	struct page *held = hold_stack_buddy();
	struct bench_result r = bench_time_as(memcg, op_stack_order2, NULL);

	free_pages(held, THREAD_ORDER);
	bench_print("stack_order2_accounted", &r);
}

static void bench_stack_order2_accounted(void)
{
	with_accounted_domain(stack);
}
BENCH(stack_order2_accounted);

static void op_nothing(void *arg)
{
	__asm__ volatile("" ::: "memory");
}

/* The cost of the timing itself, spread over a round: the floor under
 * every other figure (large where reading the TSC traps, as under nested
 * virtualisation). */
static void bench_timing_overhead(void)
{
	struct bench_result r = bench_time(op_nothing, NULL);
	bench_print("timing_overhead", &r);
}
BENCH(timing_overhead);
