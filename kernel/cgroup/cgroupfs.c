// SPDX-License-Identifier: MIT
/*
 * kernel/cgroup/cgroupfs.c - the /cgroup directories and their control files
 * (docs/interface.md), on the control tree of kernel/fs/ctlfs.c (Linux: the
 * memory controller's cftype table in mm/memcg/memcontrol.c).
 *
 * Every domain has a directory: /cgroup is the root domain, and mkdir
 * under any domain's directory makes a child domain, rmdir removes one.
 * Each directory has the same files; the root also has cgroup.stat. A
 * file's private pointer is its domain; its handlers parse what is
 * written, call mm/memcg/memcontrol.c, and print what is read. Handlers run
 * with the control tree's lock held (one at a time), and a failed write
 * changes nothing.
 */
#include "kernel/cgroup/cgroupfs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cgroup/cgroup2.h"
#include "kernel/cgroup/pids.h"
#include "kernel/cgroup/pids_files.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/lib/memparse.h"
#include "kernel/task/task.h"
#include "kernel/task/task_ops.h"
#include "mm/memcg/memcg_id.h"
#include "mm/memcg/memcg_oom.h"
#include "mm/memcg/memcg_stat.h"
#include "mm/memcg/memcontrol.h"
#include "mm/page.h"
#include "mm/slab.h"

_Static_assert(MEMPARSE_ALIGN == PAGE_SIZE,
	       "memparse_size must round limits to whole pages");

static struct mem_cgroup *file_memcg(struct ctl_node *file)
{
	return ctl_priv(file);
}

/* emit - append printf output to buf[*len..size); false if it did not fit
 * (then nothing was appended). */
static bool __attribute__((format(printf, 4, 5)))
emit(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - *len) {
		buf[*len] = '\0';
		return false;
	}
	*len += n;
	return true;
}

/* parse_flag - "0" or "1". */
static int parse_flag(const char *value, bool *flag)
{
	long v;

	if (parse_int(value, &v) || (v != 0 && v != 1))
		return -EINVAL;
	*flag = v;
	return 0;
}

/* --- the counter files: memory.[kmem.]{usage,max_usage,limit,failcnt} ---- */

struct counter_file {
	const char *name;
	bool kmem;              /* the kmem counter, else res */
	enum res_member member;
};

static const struct counter_file counter_files[] = {
	{"memory.usage_in_bytes", false, RES_USAGE},
	{"memory.max_usage_in_bytes", false, RES_MAX_USAGE},
	{"memory.limit_in_bytes", false, RES_LIMIT},
	{"memory.failcnt", false, RES_FAILCNT},
	{"memory.kmem.usage_in_bytes", true, RES_USAGE},
	{"memory.kmem.max_usage_in_bytes", true, RES_MAX_USAGE},
	{"memory.kmem.limit_in_bytes", true, RES_LIMIT},
	{"memory.kmem.failcnt", true, RES_FAILCNT},
};

static const struct counter_file *counter_file(struct ctl_node *file)
{
	for (size_t i = 0; i < ARRAY_SIZE(counter_files); i++)
		if (strcmp(ctl_name(file), counter_files[i].name) == 0)
			return &counter_files[i];
	return NULL;
}

static int counter_read(struct ctl_node *file, char *buf, size_t size)
{
	const struct counter_file *cf = counter_file(file);
	uint64_t v = mem_cgroup_read_counter(file_memcg(file), cf->kmem,
					     cf->member);

	return snprintf(buf, size, "%llu\n", (unsigned long long)v);
}

/* limit_write - memory.limit_in_bytes, memory.kmem.limit_in_bytes. */
static int limit_write(struct mem_cgroup *memcg, bool kmem, const char *value)
{
	uint64_t bytes;
	int ret;

	if (memparse_size(value, &bytes))
		return ctl_error(EINVAL, "'%s' is not a size (bytes, with an "
				 "optional k, m or g; -1 for unlimited)",
				 value);
	if (mem_cgroup_is_root(memcg))
		return ctl_error(EINVAL, "the root domain's limits cannot be "
				 "set");
	if (kmem)
		ret = memcg_update_kmem_limit(memcg, (int64_t)bytes);
	else
		ret = mem_cgroup_resize_limit(memcg, (int64_t)bytes);
	if (ret == -EBUSY)
		return ctl_error(EBUSY, "%s usage %lld is above %llu%s",
				 kmem ? "kmem" : "the", (long long)
				 res_counter_usage(kmem ? &memcg->kmem
							: &memcg->res),
				 (unsigned long long)bytes,
				 kmem ? "" : " even after reclaim");
	return ret;
}

static int counter_write(struct ctl_node *file, const char *value)
{
	const struct counter_file *cf = counter_file(file);
	struct mem_cgroup *memcg = file_memcg(file);
	struct res_counter *counter = cf->kmem ? &memcg->kmem : &memcg->res;
	long v;

	if (cf->member == RES_LIMIT)
		return limit_write(memcg, cf->kmem, value);

	/* max_usage and failcnt: "0" resets them. */
	if (parse_int(value, &v) || v != 0)
		return ctl_error(EINVAL, "write 0 to reset %s", cf->name);
	if (mem_cgroup_is_root(memcg))
		return 0;  /* the root's figures are the machine's */
	if (cf->member == RES_MAX_USAGE)
		mem_cgroup_reset_max(memcg, cf->kmem);
	else
		res_counter_reset_failcnt(counter);
	return 0;
}

static const struct ctl_ops counter_ro_ops = {.read = counter_read};
static const struct ctl_ops counter_rw_ops = {
	.read = counter_read,
	.write = counter_write,
};

/* --- memory.use_hierarchy, memory.force_empty, memory.oom_control -------- */

static int use_hierarchy_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "%d\n",
			READ_ONCE(file_memcg(file)->use_hierarchy));
}

static int use_hierarchy_write(struct ctl_node *file, const char *value)
{
	bool val;
	int ret;

	if (parse_flag(value, &val))
		return ctl_error(EINVAL, "write 0 or 1");
	ret = mem_cgroup_set_use_hierarchy(file_memcg(file), val);
	if (ret == -EINVAL)
		return ctl_error(EINVAL, "the parent has use_hierarchy: it "
				 "cannot be changed below it");
	if (ret == -EBUSY)
		return ctl_error(EBUSY, "the domain has children");
	return ret;
}

/* why_busy - explain why a domain cannot be emptied or removed. */
static int why_busy(struct mem_cgroup *memcg)
{
	if (READ_ONCE(memcg->nr_tasks))
		return ctl_error(EBUSY, "the domain has %u tasks",
				 READ_ONCE(memcg->nr_tasks));
	return ctl_error(EBUSY, "the domain has children");
}

static int force_empty_write(struct ctl_node *file, const char *value)
{
	struct mem_cgroup *memcg = file_memcg(file);
	int ret = mem_cgroup_force_empty(memcg);

	if (ret == -EINVAL)
		return ctl_error(EINVAL, "the root domain cannot be emptied");
	if (ret == -EBUSY)
		return why_busy(memcg);
	return ret;
}

static int oom_control_read(struct ctl_node *file, char *buf, size_t size)
{
	struct mem_cgroup *memcg = file_memcg(file);

	return snprintf(buf, size, "oom_kill_disable %d\nunder_oom %d\n"
			"oom_kill %lu\n", READ_ONCE(memcg->oom_kill_disable),
			mem_cgroup_under_oom(memcg),
			__atomic_load_n(&memcg->oom_kill, __ATOMIC_RELAXED));
}

static int oom_control_write(struct ctl_node *file, const char *value)
{
	bool val;

	if (parse_flag(value, &val))
		return ctl_error(EINVAL, "write 0 or 1 (oom_kill_disable)");
	if (mem_cgroup_set_oom_kill_disable(file_memcg(file), val))
		return ctl_error(EINVAL, "the root domain has no OOM killer "
				 "to disable");
	return 0;
}

static const struct ctl_ops use_hierarchy_ops = {
	.read = use_hierarchy_read,
	.write = use_hierarchy_write,
};
static const struct ctl_ops force_empty_ops = {.write = force_empty_write};
static const struct ctl_ops oom_control_ops = {
	.read = oom_control_read,
	.write = oom_control_write,
};

/* --- memory.stat ---------------------------------------------------------- */

static int stat_read(struct ctl_node *file, char *buf, size_t size)
{
	struct mem_cgroup_stat st;
	size_t len = 0;

	if (mem_cgroup_read_stat(file_memcg(file), &st))
		return ctl_error(ENOMEM, "no memory to count the pages");
	emit(buf, size, &len,
	     "cache %llu\nrss %llu\nkmem %llu\nkernel_stack %llu\n"
	     "slab %llu\nstock %llu\n"
	     "hierarchical_memory_limit %llu\nhierarchical_kmem_limit %llu\n"
	     "total_cache %llu\ntotal_rss %llu\ntotal_kmem %llu\n"
	     "total_kernel_stack %llu\ntotal_slab %llu\ntotal_stock %llu\n",
	     (unsigned long long)st.cache, (unsigned long long)st.rss,
	     (unsigned long long)st.kmem,
	     (unsigned long long)st.kernel_stack,
	     (unsigned long long)st.slab, (unsigned long long)st.stock,
	     (unsigned long long)st.hierarchical_memory_limit,
	     (unsigned long long)st.hierarchical_kmem_limit,
	     (unsigned long long)st.total_cache,
	     (unsigned long long)st.total_rss,
	     (unsigned long long)st.total_kmem,
	     (unsigned long long)st.total_kernel_stack,
	     (unsigned long long)st.total_slab,
	     (unsigned long long)st.total_stock);
	return (int)len;
}

static const struct ctl_ops stat_ops = {.read = stat_read};

/* --- tasks, cgroup.kill --------------------------------------------------- */

static int compare_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* tasks: one PID per line, in order, however many (a show handler: cat
 * reads it a piece at a time, kernel/fs/ctlfs.h "Long files"). Each piece
 * counts from a new snapshot: a task that comes or goes between two
 * pieces may shift the PIDs after it by one line. */
int cgroupfs_show_tasks(struct mem_cgroup *memcg, struct ctl_seq *seq)
{
	unsigned int cap, n = 0;
	struct task *task;
	int *pids;

	memcg_tree_lock();
	cap = memcg->nr_tasks + 16;
	memcg_tree_unlock();
	pids = kmalloc(cap * sizeof(*pids), GFP_KERNEL);
	if (!pids)
		return ctl_error(ENOMEM, "no memory to list the tasks");
	memcg_tree_lock();
	list_for_each_entry(task, &memcg->tasks, memcg_node) {
		if (n == cap)
			break;
		pids[n++] = task->pid;
	}
	memcg_tree_unlock();

	qsort(pids, n, sizeof(*pids), compare_int);
	for (unsigned int i = 0; i < n; i++)
		if (!ctl_seq_printf(seq, "%d\n", pids[i]))
			break;
	kfree(pids);
	return 0;
}

static int tasks_show(struct ctl_node *file, struct ctl_seq *seq)
{
	return cgroupfs_show_tasks(file_memcg(file), seq);
}

int cgroupfs_move_task(struct task *task, struct mem_cgroup *memcg)
{
	int ret = mem_cgroup_move_task(task, memcg);

	if (ret == 0)
		pids_task_moved(task);  /* its count follows, unchecked */
	if (ret == -ESRCH)
		return ctl_error(ESRCH, "task %d has exited", task->pid);
	if (ret == -EINVAL)
		return ctl_error(EINVAL, "task %d is a system task: it stays "
				 "in the root", task->pid);
	return ret;
}

static int tasks_write(struct ctl_node *file, const char *value)
{
	struct task *task;
	long pid;
	int ret;

	if (parse_int(value, &pid) || pid <= 0 || pid > INT32_MAX)
		return ctl_error(EINVAL, "'%s' is not a PID", value);
	task = task_get((int)pid);
	if (!task)
		return ctl_error(ESRCH, "no task %ld", pid);
	ret = cgroupfs_move_task(task, file_memcg(file));
	task_put(task);
	if (ret == -ENOENT)
		return ctl_error(ENOENT, "the domain is being removed");
	return ret;
}

static int kill_write(struct ctl_node *file, const char *value)
{
	if (strcmp(value, "1") != 0)
		return ctl_error(EINVAL, "write 1 to kill the domain's tasks");
	mem_cgroup_kill_tasks(file_memcg(file));
	return 0;
}

static const struct ctl_ops tasks_ops = {
	.show = tasks_show,
	.write = tasks_write,
};
static const struct ctl_ops kill_ops = {.write = kill_write};

/* --- cgroup.stat (the root only) ------------------------------------------ */

static int cgroup_stat_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "nr_domains %lu\nnr_dying_descendants %lu\n",
			mem_cgroup_nr_domains(), mem_cgroup_nr_dying());
}

static const struct ctl_ops cgroup_stat_ops = {.read = cgroup_stat_read};

/* --- directories ---------------------------------------------------------- */

static int cgroup_mkdir(struct ctl_node *dir, const char *name);
static int cgroup_rmdir(struct ctl_node *dir);

static const struct ctl_ops domain_dir_ops = {
	.mkdir = cgroup_mkdir,
	.rmdir = cgroup_rmdir,
};

/* The files of every domain's directory, in the order ls shows them. */
static const struct {
	const char *name;
	const struct ctl_ops *ops;
} domain_files[] = {
	{"memory.usage_in_bytes", &counter_ro_ops},
	{"memory.max_usage_in_bytes", &counter_rw_ops},
	{"memory.limit_in_bytes", &counter_rw_ops},
	{"memory.failcnt", &counter_rw_ops},
	{"memory.kmem.usage_in_bytes", &counter_ro_ops},
	{"memory.kmem.max_usage_in_bytes", &counter_rw_ops},
	{"memory.kmem.limit_in_bytes", &counter_rw_ops},
	{"memory.kmem.failcnt", &counter_rw_ops},
	{"memory.use_hierarchy", &use_hierarchy_ops},
	{"memory.force_empty", &force_empty_ops},
	{"memory.oom_control", &oom_control_ops},
	{"memory.stat", &stat_ops},
	{"tasks", &tasks_ops},
	{"cgroup.kill", &kill_ops},
};

/* populate - give a domain's directory its files; false if out of
 * memory (the caller removes the directory). */
static bool populate(struct ctl_node *dir, struct mem_cgroup *memcg)
{
	for (size_t i = 0; i < ARRAY_SIZE(domain_files); i++)
		if (!ctl_create_file(dir, domain_files[i].name,
				     domain_files[i].ops, memcg))
			return false;
	if (mem_cgroup_is_root(memcg))
		return ctl_create_file(dir, "cgroup.stat", &cgroup_stat_ops,
				       memcg);
	/* As a v1 hierarchy mounted with -o memory,pids has them. */
	return pids_files_create(dir, memcg);
}

static int cgroup_mkdir(struct ctl_node *dir, const char *name)
{
	struct mem_cgroup *memcg;
	struct ctl_node *node;
	int ret;

	ret = mem_cgroup_create(ctl_priv(dir), name, &memcg);
	if (ret == -ENOMEM)
		return ctl_error(ENOMEM, "no memory for a domain");
	if (ret == -ENOSPC)
		return ctl_error(ENOSPC, "every domain id is taken: %u "
				 "domains exist besides the root",
				 memcg_id_limit());
	if (ret)
		return ctl_error(ENOENT, "the parent is being removed");
	if (pids_cgroup_create(memcg)) {
		mem_cgroup_destroy(memcg);
		return ctl_error(ENOMEM, "no memory for the domain's count");
	}
	node = ctl_create_dir(dir, name, &domain_dir_ops, memcg);
	if (!node || !populate(node, memcg)) {
		if (node)
			ctl_remove(node);
		pids_cgroup_remove(memcg);
		mem_cgroup_destroy(memcg);
		return ctl_error(ENOMEM, "no memory for the domain's files");
	}
	return 0;
}

int cgroupfs_remove_domain(struct mem_cgroup *memcg)
{
	int ret;

	/* Ours, for its task count after the domain has left the tree (it
	 * may be freed then at once). Visible: ctl_lock keeps it so. */
	mem_cgroup_get(memcg);
	ret = mem_cgroup_destroy(memcg);
	/* The domain may linger, dying, while kernel pages are charged to
	 * it; its task count goes once no zombie counted in it is left. */
	if (ret == 0)
		pids_cgroup_remove(memcg);
	mem_cgroup_put(memcg);
	return ret;
}

static int cgroup_rmdir(struct ctl_node *dir)
{
	struct mem_cgroup *memcg = ctl_priv(dir);
	int ret = cgroupfs_remove_domain(memcg);

	/* Refused, the domain is still in the tree: ctl_lock keeps it. */
	if (ret == -EBUSY)
		return why_busy(memcg);
	if (ret)
		return ctl_error(EBUSY, "the root domain cannot be removed");
	ctl_remove(dir);
	return 0;
}

int cgroupfs_init(void)
{
	struct ctl_node *dir;

	if (cgroup_v2)
		return cgroup2_init();  /* /sys/fs/cgroup instead */
	if (ctl_lookup(NULL, "/cgroup", &dir) == 0)
		return 0;
	dir = ctl_create_dir(NULL, "cgroup", &domain_dir_ops, root_mem_cgroup);
	if (!dir)
		return -ENOMEM;
	if (!populate(dir, root_mem_cgroup)) {
		ctl_remove(dir);
		return -ENOMEM;
	}
	return 0;
}

const char *cgroupfs_root_path(void)
{
	return cgroup_v2 ? "/sys/fs/cgroup" : "/cgroup";
}

int cgroupfs_lookup_dir(const char *path, const char *root,
			struct ctl_node **node)
{
	char abs[CTL_PATH_MAX];
	size_t n = strlen(root);
	int ret = ctl_lookup(NULL, path, node);

	if (ret)
		return ret;
	if (!ctl_is_dir(*node))
		return -ENOTDIR;
	ctl_path(*node, abs, sizeof(abs));
	if (strncmp(abs, root, n) != 0 || (abs[n] != '\0' && abs[n] != '/'))
		return -ENOENT;
	return 0;
}

int cgroupfs_get_domain(const char *path, struct mem_cgroup **out)
{
	struct ctl_node *node;
	int ret;

	if (cgroup_v2)
		return cgroup2_get_domain(path, out);
	ctl_lock();
	/* Every directory at or below /cgroup is a domain's. */
	ret = cgroupfs_lookup_dir(path, "/cgroup", &node);
	if (ret == 0) {
		*out = ctl_priv(node);
		mem_cgroup_get(*out);  /* visible: ctl_lock keeps it so */
	}
	ctl_unlock();
	return ret;
}
