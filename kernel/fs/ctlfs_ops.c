// SPDX-License-Identifier: MIT
/*
 * kernel/fs/ctlfs_ops.c - operations on the control tree by path.
 *
 * These are what the shell's cat, echo VALUE > FILE, ls, cd, mkdir and
 * rmdir do, and what other tasks call to use the tree. Each one:
 *
 *   1. takes the tree lock and clears the explanation buffer,
 *   2. resolves the path from the root,
 *   3. checks that the node can do what is asked (a file to read, a
 *      directory to list, a handler to call),
 *   4. calls the handler, which may explain a failure with ctl_error()
 *      (a read of a long file: its show handler, for one piece),
 *   5. copies the explanation of a failure out to the caller's buffer, and
 *      releases the lock.
 *
 * No node pointer leaves this file: once the lock is released, another CPU
 * may remove the node (rmdir of a domain from a stress task).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/fs/ctlfs_internal.h"
#include "kernel/lib/errno_name.h"

/* The explanation of the current operation's failure; under the tree lock. */
static char ctl_why[CTL_WHY_MAX];

int ctl_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctl_why, sizeof(ctl_why), fmt, ap);
	va_end(ap);
	return err < 0 ? err : -err;
}

static void op_begin(void)
{
	ctl_lock();
	ctl_why[0] = '\0';
}

/* op_end - hand out the explanation of a failure, unlock, return ret. */
static int op_end(int ret, char *why)
{
	if (ret < 0 && why) {
		const char *text = errno_text(ret);

		if (!ctl_why[0])
			snprintf(ctl_why, sizeof(ctl_why), "%s",
				 text ? text : "operation failed");
		memcpy(why, ctl_why, sizeof(ctl_why));
	}
	ctl_unlock();
	return ret;
}

/* handler_failed - a handler's error, explained if the handler did not. */
static int handler_failed(int ret, const char *what, const char *path)
{
	if (!ctl_why[0])
		ctl_error(ret, "cannot %s %s", what, path);
	return ret;
}

/* resolve - ctl_walk of path[0..len) from the root, with an explanation. */
static int resolve(const char *path, size_t len, struct ctl_node **out)
{
	size_t bad = 0;
	int ret = ctl_walk(NULL, path, len, out, &bad);

	if (ret == -ENOENT)
		ctl_error(ENOENT, "%.*s does not exist", (int)bad, path);
	else if (ret == -ENOTDIR)
		ctl_error(ENOTDIR, "%.*s is not a directory", (int)bad, path);
	return ret;
}

/* resolve_path - resolve a whole, non-empty path (*out is NULL on failure). */
static int resolve_path(const char *path, struct ctl_node **out)
{
	*out = NULL;
	if (!path || !*path)
		return ctl_error(ENOENT, "no path given");
	return resolve(path, strlen(path), out);
}

/*
 * split_last - for mkdir and rmdir: find the last component of path
 * (trailing slashes ignored) at path[*start..*end); path[0..*start) is its
 * parent. Returns false if there is none ("/" or "").
 */
static bool split_last(const char *path, size_t *start, size_t *end)
{
	size_t e = strlen(path), s;

	while (e > 0 && path[e - 1] == '/')
		e--;
	s = e;
	while (s > 0 && path[s - 1] != '/')
		s--;
	*start = s;
	*end = e;
	return e > 0;
}

static bool is_dot_or_dotdot(const char *name, size_t len)
{
	return (len == 1 && name[0] == '.') ||
	       (len == 2 && name[0] == '.' && name[1] == '.');
}

/*
 * read_piece - the piece of file from record *pos (see ctl_read_at). A
 * show handler prints every record and the ctl_seq keeps the piece's; a
 * read handler's text is record 0.
 */
static int read_piece(struct ctl_node *file, const struct ctl_ops *ops,
		      size_t *pos, char *buf, size_t size)
{
	struct ctl_seq seq;
	int ret;

	if (ops->show) {
		ctl_seq_init(&seq, buf, size, *pos);
		ret = ops->show(file, &seq);
		if (ret < 0)
			return ret;
		if (seq.index > *pos)
			*pos = seq.index;
		return (int)seq.len;
	}
	buf[0] = '\0';
	if (*pos > 0)
		return 0;  /* read all of it already */
	ret = ops->read(file, buf, size);
	buf[size - 1] = '\0';  /* whatever the handler did */
	if (ret < 0)
		return ret;
	*pos = 1;
	return (int)strlen(buf);
}

int ctl_read_at(const char *path, size_t *pos, char *buf, size_t size,
		char *why)
{
	struct ctl_node *node;
	const struct ctl_ops *ops;
	int ret;

	op_begin();
	ret = resolve_path(path, &node);
	if (ret < 0)
		goto out;
	ops = ctl_ops(node);
	if (ctl_is_dir(node)) {
		ret = ctl_error(EISDIR, "%s is a directory", path);
	} else if (!ops || (!ops->read && !ops->show)) {
		ret = ctl_error(EINVAL, "%s cannot be read", path);
	} else if (size == 0) {
		ret = ctl_error(EINVAL, "no room to read %s", path);
	} else {
		ret = read_piece(node, ops, pos, buf, size);
		if (ret < 0) {
			buf[0] = '\0';
			ret = handler_failed(ret, "read", path);
		}
	}
out:
	return op_end(ret, why);
}

int ctl_read(const char *path, char *buf, size_t size, char *why)
{
	size_t pos = 0;

	return ctl_read_at(path, &pos, buf, size, why);
}

int ctl_write(const char *path, const char *value, char *why)
{
	struct ctl_node *node;
	const struct ctl_ops *ops;
	int ret;

	op_begin();
	ret = resolve_path(path, &node);
	if (ret < 0)
		goto out;
	ops = ctl_ops(node);
	if (ctl_is_dir(node)) {
		ret = ctl_error(EISDIR, "%s is a directory", path);
	} else if (!ops || !ops->write) {
		ret = ctl_error(EINVAL, "%s cannot be written", path);
	} else {
		ret = ops->write(node, value ? value : "");
		if (ret < 0)
			ret = handler_failed(ret, "write to", path);
		else
			ret = 0;
	}
out:
	return op_end(ret, why);
}

int ctl_mkdir(const char *path, char *why)
{
	char name[CTL_NAME_MAX + 1];
	struct ctl_node *parent, *child;
	const struct ctl_ops *ops;
	size_t start, end, len, bad;
	int ret;

	op_begin();
	if (!path || !*path) {
		ret = ctl_error(ENOENT, "no path given");
		goto out;
	}
	if (!split_last(path, &start, &end)) {
		ret = ctl_error(EEXIST, "/ exists");
		goto out;
	}
	/* The parent: path[0..start) is empty or ends with '/', so it is a
	 * directory if it resolves at all. */
	ret = resolve(path, start, &parent);
	if (ret < 0)
		goto out;
	len = end - start;
	if (is_dot_or_dotdot(path + start, len) ||
	    ctl_walk(parent, path + start, len, &child, &bad) == 0) {
		ret = ctl_error(EEXIST, "%.*s exists", (int)end, path);
		goto out;
	}
	if (!ctl_name_valid(path + start, len)) {
		ret = ctl_error(EINVAL,
				"bad name '%.*s' (1 to %d printable bytes)",
				(int)len, path + start, CTL_NAME_MAX);
		goto out;
	}
	ops = ctl_ops(parent);
	if (!ops || !ops->mkdir) {
		char where[CTL_PATH_MAX];

		ctl_path(parent, where, sizeof(where));
		ret = ctl_error(EPERM, "cannot make directories in %s", where);
		goto out;
	}
	memcpy(name, path + start, len);
	name[len] = '\0';
	ret = ops->mkdir(parent, name);
	if (ret < 0)
		ret = handler_failed(ret, "make", path);
	else
		ret = 0;
out:
	return op_end(ret, why);
}

/* remove_dir - ctl_rmdir and ctl_rmtree: the same checks, then the
 * directory's rmdir or rmtree handler. */
static int remove_dir(const char *path, char *why, bool tree)
{
	struct ctl_node *node;
	const struct ctl_ops *ops;
	int (*handler)(struct ctl_node *dir);
	size_t start, end;
	int ret;

	op_begin();
	ret = resolve_path(path, &node);
	if (ret < 0)
		goto out;
	if (!ctl_is_dir(node)) {
		ret = ctl_error(ENOTDIR, "%s is not a directory", path);
		goto out;
	}
	if (!split_last(path, &start, &end) || !ctl_parent(node)) {
		ret = ctl_error(EBUSY, "cannot remove /");
		goto out;
	}
	if (is_dot_or_dotdot(path + start, end - start)) {
		ret = ctl_error(EINVAL, "cannot remove '.' or '..'");
		goto out;
	}
	ops = ctl_ops(node);
	handler = !ops ? NULL : tree ? ops->rmtree : ops->rmdir;
	if (!handler) {
		ret = ctl_error(EPERM, "%s cannot be removed%s", path,
				tree ? " with what is in it" : "");
		goto out;
	}
	ret = handler(node);  /* on success, node is gone */
	if (ret < 0)
		ret = handler_failed(ret, "remove", path);
	else
		ret = 0;
out:
	return op_end(ret, why);
}

int ctl_rmdir(const char *path, char *why)
{
	return remove_dir(path, why, false);
}

int ctl_rmtree(const char *path, char *why)
{
	return remove_dir(path, why, true);
}

int ctl_list_at(const char *path, size_t *pos, char *buf, size_t size,
		char *why)
{
	struct ctl_node *node, *child;
	struct ctl_seq seq;
	int ret;

	op_begin();
	ctl_seq_init(&seq, buf, size, *pos);
	ret = resolve_path(path, &node);
	if (ret < 0)
		goto out;
	if (size == 0) {
		ret = ctl_error(EINVAL, "no room to list %s", path);
		goto out;
	}
	/* A file is one record, its name; a directory, one per child. */
	if (!ctl_is_dir(node)) {
		ctl_seq_printf(&seq, "%s\n", ctl_name(node));
	} else {
		for (child = ctl_first_child(node); child;
		     child = ctl_next_sibling(child))
			if (!ctl_seq_printf(&seq, "%s\n", ctl_name(child)))
				break;
	}
	if (seq.index > *pos)
		*pos = seq.index;
	ret = (int)seq.len;
out:
	return op_end(ret, why);
}

int ctl_stat(const char *path, char *abs, size_t size, bool *is_dir,
	     char *why)
{
	struct ctl_node *node;
	int ret;

	op_begin();
	ret = resolve_path(path, &node);
	if (ret < 0)
		goto out;
	if (ctl_path(node, abs, size) >= size) {
		ret = ctl_error(E2BIG,
				"the path of %s is longer than %zu bytes", path,
				size - 1);
		goto out;
	}
	*is_dir = ctl_is_dir(node);
out:
	return op_end(ret, why);
}
