// SPDX-License-Identifier: MIT
/*
 * kernel/cgroup/cgroup2_memory.c - the memory.* files of cgroup v2, in
 * each child of a directory that enables memory (Linux: memory_files[]
 * in mm/memcontrol.c), with Linux's formats:
 *
 *   memory.current          bytes charged, user and kernel, stock included
 *   memory.min, memory.low  "max" or bytes: what reclaim leaves the cgroup
 *   memory.high, memory.max "max" or bytes, rounded down to pages
 *   memory.peak             the highest memory.current
 *   memory.events[.local]   low, high, max, oom, oom_kill, oom_group_kill
 *   memory.oom.group        0 or 1
 *   memory.reclaim          write a size: drop that much of the cache
 *                           (in the root: of any cgroup's)
 *   memory.stat             key bytes, Linux's v2 keys in Linux's order
 *                           (the root has these two as well)
 *   memory.swap.current     0; memory.swap.max: max, or 0 (there is no swap)
 *
 * The semantics of max and high are in mm/memcg/memcg_v2.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/cgroup/cgroup2.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/lib/memparse.h"
#include "mm/memcg/memcg_protection.h"
#include "mm/memcg/memcg_stat.h"
#include "mm/memcg/memcg_v2.h"
#include "mm/memcg/memcontrol.h"
#include "mm/memcg/user_memory.h"
#include "mm/page.h"

static struct mem_cgroup *file_memcg(struct ctl_node *file)
{
	return cgroup2_of(file)->memcg;
}

/* The largest page multiple a counter holds below RES_COUNTER_MAX:
 * Linux's PAGE_COUNTER_MAX pages. A size at or past it is max. */
#define MAX_BYTES_ALIGNED \
	((uint64_t)RES_COUNTER_MAX & ~(uint64_t)(PAGE_SIZE - 1))

/* parse_max_bytes - "max", or a size as Linux's memparse reads it,
 * rounded down to a page as Linux's page_counter_memparse does, and max
 * from the largest page multiple a counter holds up. */
static int parse_max_bytes(const char *value, int64_t *bytes)
{
	uint64_t v;

	if (strcmp(value, "max") == 0) {
		*bytes = RES_COUNTER_MAX;
		return 0;
	}
	if (memparse_linux(value, &v))
		return ctl_error(EINVAL, "'%s' is not max or a size (bytes, "
				 "with an optional k, m, g, t, p or e)", value);
	v &= ~(uint64_t)(PAGE_SIZE - 1);
	*bytes = v >= MAX_BYTES_ALIGNED ? RES_COUNTER_MAX : (int64_t)v;
	return 0;
}

static int print_max_bytes(int64_t bytes, char *buf, size_t size)
{
	if (bytes == RES_COUNTER_MAX)
		return snprintf(buf, size, "max\n");
	return snprintf(buf, size, "%lld\n", (long long)bytes);
}

static int print_u64(uint64_t v, char *buf, size_t size)
{
	return snprintf(buf, size, "%llu\n", (unsigned long long)v);
}

/* --- memory.current, memory.peak, memory.swap.current --------------------- */

static int current_read(struct ctl_node *file, char *buf, size_t size)
{
	return print_u64(mem_cgroup_read_counter(file_memcg(file), false,
						 RES_USAGE), buf, size);
}

static int peak_read(struct ctl_node *file, char *buf, size_t size)
{
	return print_u64(mem_cgroup_read_counter(file_memcg(file), false,
						 RES_MAX_USAGE), buf, size);
}

static int zero_read(struct ctl_node *file, char *buf, size_t size)
{
	return print_u64(0, buf, size);
}

/* --- memory.max, memory.high, memory.min, memory.low ---------------------- */

/* write_max_bytes - parse value (bytes or "max") and give it to set. */
static int write_max_bytes(struct ctl_node *file, const char *value,
			   void (*set)(struct mem_cgroup *, int64_t))
{
	int64_t bytes = 0;  /* set by parse_max_bytes when it returns 0 */
	int ret = parse_max_bytes(value, &bytes);

	if (ret)
		return ret;
	set(file_memcg(file), bytes);
	return 0;
}

static int max_read(struct ctl_node *file, char *buf, size_t size)
{
	return print_max_bytes(READ_ONCE(file_memcg(file)->res.limit), buf,
			       size);
}

static int max_write(struct ctl_node *file, const char *value)
{
	return write_max_bytes(file, value, memcg_v2_set_max);
}

static int high_read(struct ctl_node *file, char *buf, size_t size)
{
	return print_max_bytes(READ_ONCE(file_memcg(file)->v2.high), buf,
			       size);
}

static int high_write(struct ctl_node *file, const char *value)
{
	return write_max_bytes(file, value, memcg_v2_set_high);
}

/* memory.min and memory.low: what reclaim leaves the cgroup
 * (mm/memcg/memcg_protection.c). */
static int64_t *protection(struct ctl_node *file)
{
	struct mem_cgroup *memcg = file_memcg(file);

	if (strcmp(ctl_name(file), "memory.min") == 0)
		return &memcg->v2.min;
	return &memcg->v2.low;
}

static int protection_read(struct ctl_node *file, char *buf, size_t size)
{
	return print_max_bytes(*protection(file), buf, size);
}

static int protection_write(struct ctl_node *file, const char *value)
{
	int64_t bytes = 0;  /* set by parse_max_bytes when it returns 0 */
	int ret = parse_max_bytes(value, &bytes);

	if (ret)
		return ret;
	memcg_protection_set(file_memcg(file),
			     strcmp(ctl_name(file), "memory.min") == 0, bytes);
	return 0;
}

/* --- memory.events, memory.events.local, memory.oom.group ----------------- */

static int print_events(const unsigned long *ev, char *buf, size_t size)
{
	size_t len = 0;

	for (int i = 0; i < MEMCG_NR_EVENTS; i++) {
		int n = snprintf(buf + len, size - len, "%s %lu\n",
				 memcg_v2_event_names[i],
				 __atomic_load_n(&ev[i], __ATOMIC_RELAXED));

		if (n < 0 || (size_t)n >= size - len)
			return -EINVAL;
		len += n;
	}
	return (int)len;
}

static int events_read(struct ctl_node *file, char *buf, size_t size)
{
	return print_events(file_memcg(file)->v2.events, buf, size);
}

static int events_local_read(struct ctl_node *file, char *buf, size_t size)
{
	return print_events(file_memcg(file)->v2.events_local, buf, size);
}

static int oom_group_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "%d\n",
			READ_ONCE(file_memcg(file)->v2.oom_group));
}

static int oom_group_write(struct ctl_node *file, const char *value)
{
	long long v;

	/* C's notation, as Linux's kstrtoint: "0x1" is 1 too. */
	if (parse_c_int(value, &v) || (v != 0 && v != 1))
		return ctl_error(EINVAL, "write 0 or 1");
	WRITE_ONCE(file_memcg(file)->v2.oom_group, v == 1);
	return 0;
}

/* --- memory.reclaim ------------------------------------------------------ */

/*
 * Reclaim asked for ahead of need (Linux 5.19's memory.reclaim): drop the
 * subtree's cache pages, as many as the size written, in whole pages.
 * Fewer to drop than asked is EAGAIN, and what was dropped stays dropped,
 * as in Linux. Linux retries up to 16 times, since its LRU lists may turn
 * up more pages on a later pass; tally's reclaim finds every cache page in
 * one pass, so a second could find nothing new.
 */
static int reclaim_write(struct ctl_node *file, const char *value)
{
	unsigned long wanted, dropped;
	uint64_t bytes;

	if (memparse_linux(value, &bytes))
		return ctl_error(EINVAL, "'%s' is not a size (bytes, with an "
				 "optional k, m, g, t, p or e)", value);
	wanted = bytes / PAGE_SIZE;
	if (wanted == 0)
		return 0;
	dropped = user_memory_reclaim(file_memcg(file), wanted);
	if (dropped < wanted)
		return ctl_error(EAGAIN, "reclaimed %lu of %lu pages: the "
				 "subtree has no more cache pages", dropped,
				 wanted);
	return 0;
}

/* --- memory.stat ---------------------------------------------------------- */

/*
 * Linux's v2 keys, in its order (memory_stats[]), each over the subtree
 * as Linux's are: anon is tally's rss, file its cache pages, kernel
 * every kernel page charged (stocked charge included), slab all
 * unreclaimable (tally's slab caches have no shrinker). What tally does
 * not have reads 0.
 */
static int stat_read(struct ctl_node *file, char *buf, size_t size)
{
	struct mem_cgroup_stat st;

	if (mem_cgroup_read_stat(file_memcg(file), &st))
		return ctl_error(ENOMEM, "no memory to count the pages");
	return snprintf(buf, size,
			"anon %llu\nfile %llu\nkernel %llu\n"
			"kernel_stack %llu\npagetables 0\npercpu 0\nsock 0\n"
			"vmalloc 0\nshmem 0\nfile_mapped 0\nfile_dirty 0\n"
			"file_writeback 0\ninactive_anon 0\n"
			"active_anon %llu\ninactive_file %llu\n"
			"active_file 0\nunevictable 0\n"
			"slab_reclaimable 0\nslab_unreclaimable %llu\n"
			"slab %llu\n",
			(unsigned long long)st.total_rss,
			(unsigned long long)st.total_cache,
			(unsigned long long)st.total_kmem,
			(unsigned long long)st.total_kernel_stack,
			(unsigned long long)st.total_rss,
			(unsigned long long)st.total_cache,
			(unsigned long long)st.total_slab,
			(unsigned long long)st.total_slab);
}

/* --- memory.swap.max ------------------------------------------------------ */

static int swap_max_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "%s\n",
			cgroup2_of(file)->swap_max_zero ? "0" : "max");
}

static int swap_max_write(struct ctl_node *file, const char *value)
{
	struct cgroup2 *cg = cgroup2_of(file);

	/* Tools write 0 (no swap for this cgroup) or max: both are true
	 * of a machine with no swap. */
	if (strcmp(value, "max") == 0)
		cg->swap_max_zero = false;
	else if (strcmp(value, "0") == 0)
		cg->swap_max_zero = true;
	else
		return ctl_error(EINVAL, "there is no swap: write 0 or max");
	return 0;
}

static const struct ctl_ops current_ops = {.read = current_read};
static const struct ctl_ops peak_ops = {.read = peak_read};
static const struct ctl_ops zero_ops = {.read = zero_read};
static const struct ctl_ops max_ops = {.read = max_read, .write = max_write};
static const struct ctl_ops high_ops = {
	.read = high_read,
	.write = high_write,
};
static const struct ctl_ops protection_ops = {
	.read = protection_read,
	.write = protection_write,
};
static const struct ctl_ops events_ops = {.read = events_read};
static const struct ctl_ops events_local_ops = {.read = events_local_read};
static const struct ctl_ops oom_group_ops = {
	.read = oom_group_read,
	.write = oom_group_write,
};
static const struct ctl_ops reclaim_ops = {.write = reclaim_write};
static const struct ctl_ops stat_ops = {.read = stat_read};
static const struct ctl_ops swap_max_ops = {
	.read = swap_max_read,
	.write = swap_max_write,
};

/* A child's memory files are made when its parent enables memory. The
 * root, whose charges no limit of its own holds, has only memory.reclaim
 * and memory.stat, whatever it enables (Linux marks the rest
 * CFTYPE_NOT_ON_ROOT). */
const struct cgroup2_file cgroup2_memory_files[] = {
	{"memory.current", &current_ops, true},
	{"memory.min", &protection_ops, true},
	{"memory.low", &protection_ops, true},
	{"memory.high", &high_ops, true},
	{"memory.max", &max_ops, true},
	{"memory.peak", &peak_ops, true},
	{"memory.events", &events_ops, true},
	{"memory.events.local", &events_local_ops, true},
	{"memory.oom.group", &oom_group_ops, true},
	{"memory.reclaim", &reclaim_ops, false},
	{"memory.stat", &stat_ops, false},
	{"memory.swap.current", &zero_ops, true},
	{"memory.swap.max", &swap_max_ops, true},
};
const size_t cgroup2_nr_memory_files = ARRAY_SIZE(cgroup2_memory_files);
