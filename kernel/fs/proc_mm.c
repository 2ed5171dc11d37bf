// SPDX-License-Identifier: MIT
/*
 * kernel/fs/proc_mm.c - the /proc files of the memory manager.
 *
 * mm/ computes what each file says (plain functions that print into a
 * buffer, or record by record to a struct emitter, and take what was
 * written); this file makes the files and turns a refusal into the
 * explanation the shell prints. The files are made here, not in mm/,
 * because the control-file tree allocates its nodes from mm/: mm/ knows
 * nothing of kernel/fs/, and the dependency runs one way.
 *
 *   /proc/meminfo, /proc/buddyinfo, /proc/numa   mm/meminfo.c
 *   /proc/slabinfo                               mm/slabinfo.c
 *   /proc/swaps                                  (no swap: a header)
 *   /proc/fail_page_alloc, /proc/fail_page_injected
 *                                                mm/fail_page.c
 *   /proc/sys/debug_check_on_free                mm/debug_free.c
 *   /proc/sys/vm/drop_caches                     mm/slab.c (shrinking)
 */
#include "kernel/fs/proc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/base/platform.h"
#include "kernel/lib/memparse.h"
#include "mm/debug_free.h"
#include "mm/fail_page.h"
#include "mm/meminfo.h"
#include "mm/slab.h"
#include "mm/slabinfo.h"

static int meminfo_read(struct ctl_node *file, char *buf, size_t size)
{
	return meminfo_show(buf, size);
}

static int buddyinfo_read(struct ctl_node *file, char *buf, size_t size)
{
	return buddyinfo_show(buf, size);
}

static int numa_read(struct ctl_node *file, char *buf, size_t size)
{
	return numa_show(buf, size);
}

static int slabinfo_seq_show(struct ctl_node *file, struct ctl_seq *seq)
{
	struct emitter out = ctl_seq_emitter(seq);

	slabinfo_print(&out);
	return 0;
}

/* /proc/swaps: Linux's header line and no device - there is no swap, but
 * tools read the file to learn so. */
static int swaps_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "Filename\t\t\t\tType\t\tSize\t\t"
			"Used\t\tPriority\n");
}

/*
 * /proc/sys/vm/drop_caches, write-only as in Linux: 1 (page cache), 2
 * (slab), 3 (both); 4 is taken and does nothing, anything else is EINVAL.
 * 2 and 3 give the slabs that root caches keep for their next
 * allocations back to the buddy allocator. tally's only page cache is
 * the cache pages of tasks, which their domains' limits reclaim: 1 has
 * nothing to drop.
 */
static int drop_caches_store(struct ctl_node *file, const char *value)
{
	long v;

	if (parse_int(value, &v) || v < 1 || v > 4)
		return ctl_error(EINVAL, "write 1, 2, 3 or 4");
	if (v & 2)
		kmem_cache_shrink_roots();
	return 0;
}

static int fail_page_read(struct ctl_node *file, char *buf, size_t size)
{
	return fail_page_show(buf, size);
}

static int fail_page_injected_read(struct ctl_node *file, char *buf,
				   size_t size)
{
	return fail_page_injected_show(buf, size);
}

static int fail_page_store(struct ctl_node *file, const char *value)
{
	if (fail_page_write(value) < 0)
		return ctl_error(EINVAL, "write N (every Nth page allocation "
				 "fails, N <= %lu) or 0 (off)", FAIL_PAGE_MAX);
	return 0;
}

static int check_on_free_read(struct ctl_node *file, char *buf, size_t size)
{
	return debug_free_show(buf, size);
}

static int check_on_free_store(struct ctl_node *file, const char *value)
{
	if (debug_free_write(value) < 0)
		return ctl_error(EINVAL, "write 1 (check every freed block) "
				 "or 0 (do not)");
	return 0;
}

static const struct ctl_ops meminfo_ops = {.read = meminfo_read};
static const struct ctl_ops buddyinfo_ops = {.read = buddyinfo_read};
static const struct ctl_ops numa_ops = {.read = numa_read};
static const struct ctl_ops slabinfo_ops = {.show = slabinfo_seq_show};
static const struct ctl_ops swaps_ops = {.read = swaps_read};
static const struct ctl_ops drop_caches_ops = {.write = drop_caches_store};
static const struct ctl_ops fail_page_ops = {
	.read = fail_page_read,
	.write = fail_page_store,
};
static const struct ctl_ops fail_page_injected_ops = {
	.read = fail_page_injected_read,
};
static const struct ctl_ops check_on_free_ops = {
	.read = check_on_free_read,
	.write = check_on_free_store,
};

/* The files, in the order ls shows them; dir "sys" is /proc/sys. */
static const struct {
	const char *dir;
	const char *name;
	const struct ctl_ops *ops;
} mm_files[] = {
	{NULL, "meminfo", &meminfo_ops},
	{NULL, "buddyinfo", &buddyinfo_ops},
	{NULL, "numa", &numa_ops},
	{NULL, "slabinfo", &slabinfo_ops},
	{NULL, "swaps", &swaps_ops},
	{NULL, "fail_page_alloc", &fail_page_ops},
	{NULL, "fail_page_injected", &fail_page_injected_ops},
	{"sys", "debug_check_on_free", &check_on_free_ops},
	{"sys/vm", "drop_caches", &drop_caches_ops},
};

/* proc_dir - /proc itself (name NULL) or its directory name (a path
 * below /proc), made if missing. */
static struct ctl_node *proc_dir(struct ctl_node *proc, const char *name)
{
	struct ctl_node *dir = proc;
	char part[CTL_NAME_MAX + 1];

	/* One component at a time: "sys/vm" is /proc/sys, then its vm. */
	while (name && *name) {
		size_t len = strcspn(name, "/");
		struct ctl_node *child;

		if (len > CTL_NAME_MAX)
			panic("proc_mm_init: a name in /proc/%s is too long",
			      name);
		memcpy(part, name, len);
		part[len] = '\0';
		if (ctl_lookup(dir, part, &child) < 0)
			child = ctl_create_dir(dir, part, NULL, NULL);
		if (!child)
			panic("proc_mm_init: cannot create /proc/.../%s", part);
		dir = child;
		name += len + (name[len] == '/');
	}
	return dir;
}

void proc_mm_init(void)
{
	struct ctl_node *proc;

	if (ctl_lookup(ctl_root(), "/proc", &proc) < 0)
		panic("proc_mm_init: /proc is missing");
	for (size_t i = 0; i < ARRAY_SIZE(mm_files); i++) {
		const char *dir = mm_files[i].dir;

		if (!ctl_create_file(proc_dir(proc, dir), mm_files[i].name,
				     mm_files[i].ops, NULL))
			panic("proc_mm_init: cannot create /proc/%s%s%s",
			      dir ? dir : "", dir ? "/" : "", mm_files[i].name);
	}
}
