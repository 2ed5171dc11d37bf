// SPDX-License-Identifier: MIT
/*
 * kernel/lib/errno_name.c - names and descriptions of the error numbers the
 * shell may report. The numbers themselves come from the C library's
 * <errno.h> (newlib in the kernel, glibc on the host): the table is written
 * with the symbolic constants, so it is right for both.
 */
#include <errno.h>
#include <stddef.h>

#include "kernel/lib/errno_name.h"
#include "kernel/base/platform.h"

static const struct {
	int err;
	const char *name;
	const char *text;
} errno_table[] = {
	{EINVAL,  "EINVAL",  "invalid argument"},
	{EBUSY,   "EBUSY",   "device or resource busy"},
	{ENOENT,  "ENOENT",  "no such file or directory"},
	{EEXIST,  "EEXIST",  "file exists"},
	{ENOMEM,  "ENOMEM",  "out of memory"},
	{ENOTDIR, "ENOTDIR", "not a directory"},
	{EISDIR,  "EISDIR",  "is a directory"},
	{EPERM,   "EPERM",   "operation not permitted"},
	{ESRCH,   "ESRCH",   "no such task"},
	{ENOSPC,  "ENOSPC",  "no space left"},
	{E2BIG,   "E2BIG",   "argument list too long"},
	{EAGAIN,  "EAGAIN",  "resource temporarily unavailable"},
	{ERANGE,  "ERANGE",  "result out of range"},
	{EOPNOTSUPP, "EOPNOTSUPP", "operation not supported"},
	{ENODEV,  "ENODEV",  "no such device"},
};

static int errno_index(int err)
{
	for (size_t i = 0; i < ARRAY_SIZE(errno_table); i++)
		if (errno_table[i].err == err || -errno_table[i].err == err)
			return (int)i;
	return -1;
}

const char *errno_name(int err)
{
	int i = errno_index(err);

	return i < 0 ? NULL : errno_table[i].name;
}

const char *errno_text(int err)
{
	int i = errno_index(err);

	return i < 0 ? NULL : errno_table[i].text;
}
