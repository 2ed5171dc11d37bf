// SPDX-License-Identifier: MIT
/*
 * kernel/programs/programs.c - the built-in programs that `run` starts.
 *
 *   spin            sleeps until killed
 *   worker [N]      units of CPU work, counted in WORK; N units then exits
 *                   (for ever without N)
 *   forkbomb        forks copies of itself as fast as it can; on a
 *                   refusal (ENOMEM from a memory limit, EAGAIN from
 *                   pids.max) backs off one tick and tries again (WORK:
 *                   forks)
 *   hog SIZE        SIZE of rss user memory, then sleeps (WORK: pages)
 *   cache SIZE      SIZE of cache (reclaimable) pages, then sleeps
 *   kmemhog SIZE    SIZE of accounted kernel pages, then sleeps
 *   mkdirloop [DIR] `while true; do mkdir x; cd x; done` in /tmp (or DIR,
 *                   a directory of /tmp); exits at the first ENOMEM
 *                   (WORK: directories made)
 *   stress SECONDS  random domain and task operations
 *                   (kernel/programs/stress.c)
 *
 * What they hold is freed when they exit (killed).
 */
#include <errno.h>
#include <string.h>

#include "kernel/lib/memparse.h"
#include "kernel/sched/program.h"
#include "kernel/fs/tmpfs.h"
#include "kernel/programs/forkbomb_stats.h"
#include "kernel/programs/stress.h"
#include "mm/page.h"

/* One unit of work: a fixed amount of arithmetic (some tens of
 * microseconds), that the compiler cannot drop. */
#define WORK_UNIT_ITERATIONS 20000

static void work_unit(void)
{
	volatile uint64_t x = 1;

	for (int i = 0; i < WORK_UNIT_ITERATIONS; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
}

static void spin_main(struct task *self, const char *arg)
{
	prog_pause(self);
}

static int worker_check(const char *arg)
{
	long n;

	if (!arg[0])
		return 0;
	return parse_int(arg, &n) == 0 && n > 0 ? 0 : -EINVAL;
}

static void worker_main(struct task *self, const char *arg)
{
	long units = 0;

	if (arg[0])
		parse_int(arg, &units);
	while (units == 0 || self->work < (uint64_t)units) {
		work_unit();
		self->work++;
	}
}

struct forkbomb_stats forkbomb_stats;

static void forkbomb_count(uint64_t *counter)
{
	__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

static void forkbomb_main(struct task *self, const char *arg)
{
	for (;;) {
		int ret = prog_fork(self);

		if (ret >= 0) {
			self->work++;
			forkbomb_count(&forkbomb_stats.forks_ok);
			continue;
		}
		if (ret == -ENOMEM)
			forkbomb_count(&forkbomb_stats.enomem);
		else if (ret == -EAGAIN)
			forkbomb_count(&forkbomb_stats.eagain);
		else
			forkbomb_count(&forkbomb_stats.other);
		prog_sleep(self, 1);  /* refused: back off a tick */
	}
}

/* size_check / size_pages - SIZE as memory.limit_in_bytes reads it
 * (kernel/lib/memparse.h); not -1. */
static int size_check(const char *arg)
{
	uint64_t bytes;

	if (memparse_size(arg, &bytes) < 0 || bytes == SIZE_UNLIMITED)
		return -EINVAL;
	return 0;
}

static unsigned long size_pages(const char *arg)
{
	uint64_t bytes = 0;

	memparse_size(arg, &bytes);
	return bytes / PAGE_SIZE;
}

static void user_memory_main(struct task *self, const char *arg,
			     enum user_page_kind kind)
{
	/* On -ENOMEM (out of memory, or chosen by the OOM killer) it keeps
	 * what it got; a killed task exits as the call returns. */
	prog_user_alloc(self, size_pages(arg), kind);
	self->work = READ_ONCE(self->user_pages);
	prog_pause(self);
}

static void hog_main(struct task *self, const char *arg)
{
	user_memory_main(self, arg, USER_RSS);
}

static void cache_main(struct task *self, const char *arg)
{
	user_memory_main(self, arg, USER_CACHE);
}

static void kmemhog_main(struct task *self, const char *arg)
{
	unsigned long pages = size_pages(arg);

	for (unsigned long i = 0; i < pages; i++) {
		if (prog_kmem_alloc(self) < 0)
			break;  /* at the limit: keep what it has */
		self->work++;
	}
	prog_pause(self);
}

/*
 * mkdirloop - the 2012 cover letter's example of kernel memory that no
 * task holds: `while true; do mkdir x; cd x; done`. Each directory is an
 * inode and a directory entry charged to the task's domain (kernel/fs/tmpfs.h)
 * and outlives the task. As the shell loop would, it goes on when x
 * exists already (mkdir fails with EEXIST, cd x works), and stops - the
 * task exits - at the first ENOMEM, or if its directory is removed under
 * it. It prints nothing (the console is the shell's); WORK counts the
 * directories it made, and stays visible in ps once it has exited (Z).
 * Its working directory is an inode reference, held in prog_data and
 * dropped at exit.
 */
static void mkdirloop_drop_cwd(struct task *self)
{
	if (self->prog_data)
		tmpfs_put(self->prog_data);
	self->prog_data = NULL;
}

static int mkdirloop_check(const char *arg)
{
	struct tmpfs_inode *dir;

	if (!arg[0])
		return 0;
	if (tmpfs_open_dir(arg, &dir) < 0)
		return -EINVAL;  /* not a directory of /tmp */
	tmpfs_put(dir);
	return 0;
}

static void mkdirloop_main(struct task *self, const char *arg)
{
	struct tmpfs_inode *cwd;
	int ret;

	kernel_enter(self);
	ret = tmpfs_open_dir(arg[0] ? arg : "/tmp", &cwd);
	if (ret == 0) {
		self->prog_data = cwd;
		self->prog_exit = mkdirloop_drop_cwd;
	}
	kernel_leave(self);

	while (ret == 0) {
		kernel_enter(self);
		ret = tmpfs_mkdir_at(self->prog_data, "x");       /* mkdir x */
		if (ret == 0)
			self->work++;
		if (ret == 0 || ret == -EEXIST)
			ret = tmpfs_chdir_at(  /* cd x */
				(struct tmpfs_inode **)&self->prog_data, "x");
		kernel_leave(self);
	}
}

static const struct program programs[] = {
	{"spin", spin_main, "spin", NULL},
	{"worker", worker_main, "worker [UNITS]", worker_check},
	{"forkbomb", forkbomb_main, "forkbomb", NULL},
	{"hog", hog_main, "hog SIZE", size_check},
	{"cache", cache_main, "cache SIZE", size_check},
	{"kmemhog", kmemhog_main, "kmemhog SIZE", size_check},
	{"mkdirloop", mkdirloop_main, "mkdirloop [DIR]", mkdirloop_check},
	{"stress", stress_main, "stress SECONDS", stress_check},
};

const struct program *program_find(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(programs); i++)
		if (!strcmp(programs[i].name, name))
			return &programs[i];
	return NULL;
}
