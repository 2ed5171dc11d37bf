// SPDX-License-Identifier: MIT
/*
 * kernel/ktest/ktest_mm.c - in-kernel tests of physical memory: the buddy
 * allocator, the per-CPU lists and the slab allocator, on the machine's
 * real RAM and CPUs (`ktest NAME` at the shell). The host unit tests in
 * tests/unit/ check the same code in detail; these check it where it runs.
 *
 * The tests that count free pages expect a quiet machine: nothing else
 * allocating while they run (the shell is waiting for them).
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/ktest/ktest.h"
#include "kernel/base/platform.h"
#include "mm/buddy.h"
#include "mm/meminfo.h"
#include "mm/pcp.h"
#include "mm/slab.h"

static inline uint64_t rdtsc(void)
{
	return __builtin_ia32_rdtsc();
}

/* A small random number generator (xorshift64), one state per caller. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* zone_free_lists_ok - free_lists_ok for one zone. */
static bool zone_free_lists_ok(struct zone *zone)
{
	unsigned long frames = 0, flags;
	bool ok = true;
	struct page *page;

	flags = spin_lock_irqsave(&zone->lock);
	for (unsigned int order = 0; order <= MAX_ORDER; order++) {
		struct free_area *area = &zone->free_area[order];
		unsigned long blocks = 0;

		list_for_each_entry(page, &area->free_list, lru) {
			uint64_t pfn = page_to_pfn(page);
			uint64_t buddy_pfn = pfn ^ (1ul << order);

			blocks++;
			frames += 1ul << order;
			if (pfn % (1ul << order) != 0 ||
			    page->flags != PG_buddy || page->order != order ||
			    page->node != zone->node ||
			    pfn + (1ul << order) > max_pfn)
				ok = false;
			if (order < MAX_ORDER && buddy_pfn < max_pfn &&
			    pfn_to_page(buddy_pfn)->flags == PG_buddy &&
			    pfn_to_page(buddy_pfn)->order == order &&
			    pfn_to_page(buddy_pfn)->node == zone->node)
				ok = false;  /* two free buddies not merged */
		}
		if (blocks != area->nr_free)
			ok = false;
	}
	if (frames != zone->free_pages)
		ok = false;
	spin_unlock_irqrestore(&zone->lock, flags);
	return ok;
}

/*
 * free_lists_ok - the buddy allocator's invariants, checked under each
 * node's zone lock after draining the per-CPU lists: every free block is
 * naturally aligned, marked PG_buddy with its order, inside RAM, of the
 * zone's node, and not mergeable with its buddy (else freeing failed to
 * merge); the blocks add up to the zone's free count.
 */
static bool free_lists_ok(struct ktest *t)
{
	bool ok = true;

	drain_all_pages();
	for (unsigned int nid = 0; nid < nr_node_ids; nid++)
		ok = zone_free_lists_ok(&node_zones[nid]) && ok;
	KTEST_EXPECT(t, ok, "free lists: aligned, marked, merged, counted");
	return ok;
}

/* Split and merge: blocks are aligned and marked; freeing merges back. */
static void ktest_buddy_split_merge(struct ktest *t)
{
	struct page *blocks[64];
	unsigned int orders[64];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned long before;

	free_lists_ok(t);
	before = nr_free_pages();
	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < 64; i++) {
			orders[i] = next_random(&seed) % (MAX_ORDER + 1);
			if (orders[i] > 4 && next_random(&seed) % 4)
				orders[i] %= 4;  /* mostly small */
			blocks[i] = alloc_pages(GFP_KERNEL, orders[i]);
			KTEST_EXPECT(t, blocks[i] != NULL, "allocation");
			if (!blocks[i])
				continue;
			KTEST_EXPECT(t, page_to_pfn(blocks[i]) %
					(1ul << orders[i]) == 0,
				     "block aligned to its order");
			KTEST_EXPECT(t, blocks[i]->flags == PG_head &&
					blocks[i]->order == orders[i],
				     "PG_head and order recorded");
		}
		/* free in a shuffled order */
		for (int i = 0; i < 64; i++) {
			int j = (i * 37 + round) % 64;

			free_pages(blocks[j], orders[j]);
		}
	}
	KTEST_EXPECT(t, nr_free_pages() == before, "every page came back");
	free_lists_ok(t);
}
KTEST(buddy_split_merge);

/*
 * Exhaustion and recovery: take every free page (largest blocks first,
 * chained through their own memory), check allocation then fails, give
 * everything back, and nr_free_pages() is exactly what it was.
 */
struct chained_block {
	struct chained_block *next;
	unsigned int order;
};

static void ktest_buddy_exhaust_recover(struct ktest *t)
{
	struct chained_block *chain = NULL;
	unsigned long before, frames = 0;

	drain_all_pages();
	before = nr_free_pages();
	for (int order = MAX_ORDER; order >= 0; order--) {
		struct page *page;

		while ((page = alloc_pages(__GFP_NOWARN, order)) != NULL) {
			struct chained_block *b = page_address(page);

			b->next = chain;
			b->order = order;
			chain = b;
			frames += 1ul << order;
		}
	}
	KTEST_EXPECT(t, frames == before, "all free pages were allocated");
	KTEST_EXPECT(t, nr_free_pages() == 0, "nothing is free");
	KTEST_EXPECT(t, alloc_pages(__GFP_NOWARN, 0) == NULL,
		     "allocation fails when memory is exhausted");
	KTEST_EXPECT(t, kmalloc(4096 * 2, __GFP_NOWARN) == NULL,
		     "large kmalloc fails too");
	while (chain) {
		struct chained_block *b = chain;

		chain = b->next;
		free_pages(virt_to_page(b), b->order);
	}
	KTEST_EXPECT(t, nr_free_pages() == before, "every page came back");
	free_lists_ok(t);
	printk("# buddy_exhaust_recover: %lu pages allocated and freed\n",
	       frames);
}
KTEST(buddy_exhaust_recover);

/* Per-CPU lists: refilled and drained a batch at a time. */
static void ktest_pcp_batching(struct ktest *t)
{
	static struct page *pages[1024];
	unsigned long flags = local_irq_save();  /* stay on this CPU */
	struct per_cpu_pages *pcp = &pcp_lists[smp_processor_id()];
	/* refills come from it */
	struct zone *zone = &node_zones[numa_node_id()];
	int batch = pcp->batch, high = pcp->high, n = high + batch;
	unsigned long buddy_before;

	KTEST_EXPECT(t, batch >= 1 && high > batch && n <= 1024,
		     "sane batch and high");
	drain_local_pages();
	KTEST_EXPECT(t, pcp->count == 0, "drained list is empty");
	buddy_before = zone->free_pages;
	pages[0] = alloc_page(GFP_KERNEL);
	KTEST_EXPECT(t, pcp->count == batch - 1, "refilled with one batch");
	KTEST_EXPECT(t, zone->free_pages == buddy_before - batch,
		     "one batch taken from the buddy allocator");
	for (int i = 1; i < n; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	drain_local_pages();
	for (int i = 0; i < n; i++) {
		free_pages(pages[i], 0);
		KTEST_EXPECT(t, pcp->count < high, "list stays below high");
	}
	KTEST_EXPECT(t, pcp->count >= high - batch, "drained one batch only");
	drain_local_pages();
	local_irq_restore(flags);
	printk("# pcp_batching: batch=%d high=%d\n", batch, high);
}
KTEST(pcp_batching);

/* Slab: distinct objects, reuse, empty slabs back to the buddy allocator. */
static void ktest_slab_alloc_free(struct ktest *t)
{
	static void *objs[300];
	unsigned long before = nr_free_pages();
	struct kmem_cache *c = kmem_cache_create("ktest-200", 200, 0, 0);
	struct slabinfo info;
	bool distinct = true;

	KTEST_EXPECT(t, c != NULL, "kmem_cache_create");
	if (!c)
		return;
	for (int i = 0; i < 300; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		memset(objs[i], i & 0xff, 200);
	}
	for (int i = 0; i < 300; i++)
		for (int j = 0; j < 200; j += 50)
			distinct &= ((unsigned char *)objs[i])[j] == (i & 0xff);
	KTEST_EXPECT(t, distinct, "no two objects overlap");
	get_slabinfo(c, &info);
	KTEST_EXPECT(t, info.active_objs == 300, "300 objects in use");
	KTEST_EXPECT(t, info.num_slabs == (300 + info.objperslab - 1) /
				info.objperslab, "as few slabs as needed");

	kmem_cache_free(c, objs[7]);
	KTEST_EXPECT(t, kmem_cache_alloc(c, GFP_KERNEL) == objs[7],
		     "the last freed object is reused");
	for (int i = 0; i < 300; i++)
		kmem_cache_free(c, objs[i]);
	get_slabinfo(c, &info);
	/* Kept: a CPU slab per CPU this ran on, and one empty slab. */
	KTEST_EXPECT(t, info.num_slabs <= nr_cpus + 1,
		     "at most one empty slab kept, and the CPU slabs");
	kmem_cache_destroy(c);
	KTEST_EXPECT(t, before - nr_free_pages() <= 1,
		     "slab pages went back (but the kmem_cache's own)");
}
KTEST(slab_alloc_free);

static void ktest_kmalloc_sizes(struct ktest *t)
{
	static const size_t sizes[] = {1, 8, 9, 100, 512, 1000, 2048, 2049,
				       4096, 10000, 100000, 1 << 22};
	void *p[ARRAY_SIZE(sizes)];
	unsigned long before = nr_free_pages();

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = kmalloc(sizes[i], __GFP_ZERO);
		KTEST_EXPECT(t, p[i] != NULL, "kmalloc");
		if (!p[i])
			continue;
		KTEST_EXPECT(t, ksize(p[i]) >= sizes[i], "ksize covers it");
		/* The analyser takes kmalloc for malloc: it does not know
		 * that __GFP_ZERO has written the byte.
		 * NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult) */
		KTEST_EXPECT(t, ((unsigned char *)p[i])[sizes[i] - 1] == 0,
			     "__GFP_ZERO");
		memset(p[i], 0x77, sizes[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		kfree(p[i]);
	kfree(NULL);
	/* only empty slabs kept by the kmalloc caches may be missing */
	KTEST_EXPECT(t, before - nr_free_pages() <= 64,
		     "MemFree back within 256 KiB");
}
KTEST(kmalloc_sizes);

/*
 * All CPUs at once (smp_call_function_all): each allocates blocks of small
 * orders and kmalloc objects, tagged with its CPU and slot; then every tag
 * is checked (an overlap would have overwritten one) and every pair of
 * blocks compared; then all CPUs free at once.
 */
#define SMP_SLOTS 48
struct smp_block {
	unsigned char *p;
	size_t len;
	unsigned int order;  /* pages; ~0u: kmalloc */
};
static struct smp_block smp_blocks[NR_CPUS][SMP_SLOTS];
static int smp_failures;

static uint64_t smp_tag(unsigned int cpu, int slot)
{
	return 0x5a00000000000000ull | (uint64_t)cpu << 16 | slot;
}

static void smp_alloc_fn(void *arg)
{
	unsigned int cpu = smp_processor_id();
	uint64_t seed = (uint64_t)(uintptr_t)arg * 2654435761u + cpu + 1;

	for (int i = 0; i < SMP_SLOTS; i++) {
		struct smp_block *b = &smp_blocks[cpu][i];

		if (next_random(&seed) % 3 == 0) {
			b->len = 16 + next_random(&seed) % 3000;
			b->order = ~0u;
			b->p = kmalloc(b->len, GFP_ATOMIC);
		} else {
			struct page *page;

			b->order = next_random(&seed) % 4;
			b->len = PAGE_SIZE << b->order;
			page = alloc_pages(GFP_ATOMIC, b->order);
			b->p = page ? page_address(page) : NULL;
		}
		if (!b->p) {
			__atomic_add_fetch(&smp_failures, 1, __ATOMIC_RELAXED);
			continue;
		}
		*(uint64_t *)b->p = smp_tag(cpu, i);
		*(uint64_t *)(b->p + b->len - 8) = smp_tag(cpu, i);
	}
}

static void smp_free_fn(void *arg)
{
	unsigned int cpu = smp_processor_id();

	for (int i = 0; i < SMP_SLOTS; i++) {
		struct smp_block *b = &smp_blocks[cpu][i];

		if (!b->p)
			continue;
		if (*(uint64_t *)b->p != smp_tag(cpu, i) ||
		    *(uint64_t *)(b->p + b->len - 8) != smp_tag(cpu, i))
			__atomic_add_fetch(&smp_failures, 1, __ATOMIC_RELAXED);
		if (b->order == ~0u)
			kfree(b->p);
		else
			free_pages(virt_to_page(b->p), b->order);
		b->p = NULL;
	}
}

static void ktest_mm_smp_no_overlap(struct ktest *t)
{
	unsigned long before;
	bool disjoint = true;

	drain_all_pages();
	before = nr_free_pages();
	smp_failures = 0;
	for (uintptr_t round = 0; round < 20; round++) {
		smp_call_function_all(smp_alloc_fn, (void *)round);
		for (unsigned int c1 = 0; c1 < nr_cpus; c1++)
			for (int i = 0; i < SMP_SLOTS; i++) {
				struct smp_block *a = &smp_blocks[c1][i];

				if (!a->p)
					continue;
				for (unsigned int c2 = c1; c2 < nr_cpus; c2++)
					for (int j = 0; j < SMP_SLOTS; j++) {
						struct smp_block *b =
							&smp_blocks[c2][j];

						if (a == b || !b->p)
							continue;
						if (a->p < b->p + b->len &&
						    b->p < a->p + a->len)
							disjoint = false;
					}
			}
		smp_call_function_all(smp_free_fn, NULL);
	}
	KTEST_EXPECT(t, disjoint, "no two live allocations overlap");
	KTEST_EXPECT(t, smp_failures == 0, "no allocation failed or was "
		     "overwritten");
	drain_all_pages();
	KTEST_EXPECT(t, before - nr_free_pages() <= 64,
		     "MemFree back within 256 KiB");
	printk("# mm_smp_no_overlap: %u CPUs, %d rounds of %d allocations "
	       "each\n", nr_cpus, 20, SMP_SLOTS);
}
KTEST(mm_smp_no_overlap);

/* The per-CPU fast path: alloc+free of one page, in cycles (TSC). */
#define CYCLE_SAMPLES 1001
#define PAIRS_PER_SAMPLE 16

static void ktest_page_order0_cycles(struct ktest *t)
{
	static uint64_t samples[CYCLE_SAMPLES];

	preempt_disable();
	for (int i = 0; i < 1000; i++)  /* warm the list and caches */
		free_pages(alloc_page(GFP_KERNEL), 0);
	for (int s = 0; s < CYCLE_SAMPLES; s++) {
		uint64_t start = rdtsc();

		for (int i = 0; i < PAIRS_PER_SAMPLE; i++)
			free_pages(alloc_page(GFP_KERNEL), 0);
		samples[s] = (rdtsc() - start) / PAIRS_PER_SAMPLE;
	}
	preempt_enable();

	/* insertion sort, for the median */
	for (int i = 1; i < CYCLE_SAMPLES; i++) {
		uint64_t v = samples[i];
		int j = i;

		for (; j > 0 && samples[j - 1] > v; j--)
			samples[j] = samples[j - 1];
		samples[j] = v;
	}
	printk("# page_order0 median_cycles=%lu\n",
	       (unsigned long)samples[CYCLE_SAMPLES / 2]);
	KTEST_EXPECT(t, samples[CYCLE_SAMPLES / 2] > 0, "the TSC runs");
}
KTEST(page_order0_cycles);

/* /proc/meminfo and /proc/buddyinfo exist and are in Linux's format. */
static void ktest_mm_proc_files(struct ktest *t)
{
	static char buf[512];
	struct ctl_node *node;
	unsigned long total = 0, free = 0, counts = 0;
	const char *p;

	KTEST_EXPECT(t, ctl_lookup(ctl_root(), "/proc/meminfo", &node) == 0,
		     "/proc/meminfo exists");
	KTEST_EXPECT(t, ctl_lookup(ctl_root(), "/proc/buddyinfo", &node) == 0,
		     "/proc/buddyinfo exists");

	meminfo_show(buf, sizeof(buf));
	KTEST_EXPECT(t, !strncmp(buf, "MemTotal:       ", 16),
		     "MemTotal: first, padded to 16 columns");
	p = strstr(buf, "MemTotal:");
	if (p)
		total = strtoul(p + 9, NULL, 10);
	p = strstr(buf, "MemFree:");
	if (p)
		free = strtoul(p + 8, NULL, 10);
	KTEST_EXPECT(t, total == totalram_pages * 4, "MemTotal in kB");
	KTEST_EXPECT(t, free > 0 && free <= total, "0 < MemFree <= MemTotal");

	buddyinfo_show(buf, sizeof(buf));
	KTEST_EXPECT(t, !strncmp(buf, "Node 0, zone   Normal ", 22),
		     "buddyinfo starts with 'Node 0, zone   Normal'");
	for (p = buf + 22; *p && *p != '\n'; counts++) {
		char *end;

		strtoul(p, &end, 10);
		if (end == p)
			break;
		p = end;
		while (*p == ' ')
			p++;
	}
	KTEST_EXPECT(t, counts == MAX_ORDER + 1, "11 counts");
}
KTEST(mm_proc_files);

/* A double free, to show (and test) the panic that names the frame. */
static void ktest_panic_double_free(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);

	printk("# freeing pfn 0x%lx twice\n", (unsigned long)page_to_pfn(page));
	free_pages(page, 0);
	free_pages(page, 0);
	KTEST_EXPECT(t, false, "the second free panics");
}
KTEST(panic_double_free);
