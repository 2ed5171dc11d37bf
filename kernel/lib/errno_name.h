/* SPDX-License-Identifier: MIT */
/*
 * kernel/lib/errno_name.h - the symbolic name of an error number.
 *
 * The shell reports a failed command as "error: ENAME: explanation"; this is
 * where -EBUSY becomes "EBUSY". Only the names the shell protocol allows
 * (docs/interface.md) are known: EINVAL, EBUSY, ENOENT, EEXIST, ENOMEM,
 * ENOTDIR, EISDIR, EPERM, ESRCH, ENOSPC, E2BIG.
 */
#ifndef KERNEL_ERRNO_NAME_H
#define KERNEL_ERRNO_NAME_H

/* errno_name - "EINVAL" for EINVAL or -EINVAL; NULL for any other number. */
const char *errno_name(int err);

/* errno_text - a short description ("invalid argument"); NULL if unknown. */
const char *errno_text(int err);

#endif
