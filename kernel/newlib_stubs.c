// SPDX-License-Identifier: MIT
/*
 * kernel/newlib_stubs.c - the system calls newlib expects, for a kernel.
 *
 * newlib is the C library (snprintf, strtoull, string functions). Its
 * stdio ends in _write, which here goes to the console; its malloc grows
 * with _sbrk, here a fixed arena in the kernel image (kernel objects come
 * from kmalloc, not malloc: newlib only needs a little for itself). The
 * rest fail cleanly with an errno.
 */
#include <errno.h>
#include <reent.h>
#include <stddef.h>
#include <sys/stat.h>

#include "kernel/printk/console.h"
#include "kernel/base/power.h"
#include "kernel/base/spinlock.h"

/* This newlib calls the plain names (write, sbrk, ...). */
#undef errno
extern int errno;

#define SBRK_ARENA_SIZE (256 * 1024)
static char sbrk_arena[SBRK_ARENA_SIZE] __attribute__((aligned(16)));
static size_t sbrk_used;
static spinlock_t malloc_lock = SPINLOCK_INIT;
static unsigned long malloc_lock_flags;

void *sbrk(ptrdiff_t increment)
{
	if (increment < 0 || sbrk_used + increment > SBRK_ARENA_SIZE) {
		errno = ENOMEM;
		return (void *)-1;
	}
	void *old = &sbrk_arena[sbrk_used];
	sbrk_used += increment;
	return old;
}

void __malloc_lock(struct _reent *r)
{
	malloc_lock_flags = spin_lock_irqsave(&malloc_lock);
}

void __malloc_unlock(struct _reent *r)
{
	spin_unlock_irqrestore(&malloc_lock, malloc_lock_flags);
}

int write(int fd, const char *buf, int len)
{
	if (fd != 1 && fd != 2) {
		errno = EBADF;
		return -1;
	}
	console_write(buf, len);
	return len;
}

int read(int fd, char *buf, int len)
{
	errno = EBADF;
	return -1;
}

int close(int fd)
{
	errno = EBADF;
	return -1;
}

int fstat(int fd, struct stat *st)
{
	st->st_mode = S_IFCHR;
	return 0;
}

int isatty(int fd)
{
	return fd <= 2;
}

int lseek(int fd, int offset, int whence)
{
	errno = ESPIPE;
	return -1;
}

int open(const char *path, int flags, int mode)
{
	errno = ENOENT;
	return -1;
}

int getpid(void)
{
	return 0;
}

int kill(int pid, int sig)
{
	errno = EINVAL;
	return -1;
}

_Noreturn void _exit(int status)
{
	machine_exit(status ? 1 : 0);
}
