/*
 * kernel/ctlfs.h - the in-memory tree of control files: /proc, /cgroup.
 *
 * Every node is a directory or a file; a file is a pair of handlers, read
 * and write, as a kernfs/cgroupfs file in Linux. A directory may have mkdir
 * and rmdir handlers (the /cgroup tree creates a domain on mkdir). The shell
 * is the only user interface to the tree.
 *
 * Handlers return a negative errno (-EINVAL, ...) on failure, and must then
 * have changed nothing. A handler explains a failure with ctl_error(), which
 * the shell prints as "error: ENAME: explanation".
 *
 * Locking. One lock, the tree lock (ctl_lock), protects the whole tree, as
 * cgroup_mutex does in Linux. Everything that looks at or changes nodes
 * holds it: lookups, iteration, ctl_create_*, ctl_remove, and the calls of
 * handlers. The path operations at the end of this file (ctl_read,
 * ctl_write, ctl_mkdir, ctl_rmdir, ctl_list, ctl_stat) take it themselves
 * and hand back only copies (text, names, paths), never a node: they are
 * what the shell and other tasks call, from any CPU. Handlers run with the
 * lock held, so
 *   - a mkdir/rmdir handler may call ctl_create_*() and ctl_remove()
 *     directly (it must not take the lock again, nor call a path
 *     operation);
 *   - handlers must not sleep: it is a spinlock.
 * Code that builds its part of the tree at boot, before other CPUs use it,
 * may call ctl_create_*() without the lock; later it takes ctl_lock().
 */
#ifndef KERNEL_CTLFS_H
#define KERNEL_CTLFS_H

#include <stdbool.h>
#include <stddef.h>

#include "mm/gfp.h"

struct ctl_node;

struct ctl_ops {
	/* Write the file's contents to buf (NUL-terminated, at most size
	 * bytes with the NUL); return the length or -errno. NULL: the file
	 * cannot be read (EINVAL). */
	int (*read)(struct ctl_node *file, char *buf, size_t size);
	/* Take value (the text the user wrote, without the newline); return 0
	 * or -errno. NULL: the file cannot be written (EINVAL). */
	int (*write)(struct ctl_node *file, const char *value);
	/* Directories: make a child named name / remove this directory. NULL:
	 * EPERM. mkdir creates the child node itself (ctl_create_dir); rmdir,
	 * on success, removes the node itself (ctl_remove). */
	int (*mkdir)(struct ctl_node *dir, const char *name);
	int (*rmdir)(struct ctl_node *dir);
	/* Directories: remove this directory and everything below it (rm
	 * -r; a filesystem such as /tmp). NULL: EPERM. On success the node
	 * is gone. */
	int (*rmtree)(struct ctl_node *dir);
};

#define CTL_NAME_MAX 63
#define CTL_PATH_MAX 256
/* Largest output of one read handler. */
#define CTL_READ_MAX 8192

struct ctl_node *ctl_root(void);
/* ctl_create_dir/ctl_create_file - add a child (parent NULL: the root);
 * NULL if out of memory, the name exists, or it is not a valid name (empty,
 * ".", "..", longer than CTL_NAME_MAX, containing '/' or a control byte).
 * priv is handed back by ctl_priv(). */
struct ctl_node *ctl_create_dir(struct ctl_node *parent, const char *name,
				const struct ctl_ops *ops, void *priv);
struct ctl_node *ctl_create_file(struct ctl_node *parent, const char *name,
				 const struct ctl_ops *ops, void *priv);
/* ctl_create_dir_gfp - ctl_create_dir with the node allocated with gfp:
 * GFP_ACCOUNT charges it, as a directory entry of /tmp is, to the domain
 * of the task making it (mm/memcg_slab.h). */
struct ctl_node *ctl_create_dir_gfp(struct ctl_node *parent, const char *name,
				    const struct ctl_ops *ops, void *priv,
				    gfp_t gfp);
/* ctl_remove - unlink a node and free it and everything below it. */
void ctl_remove(struct ctl_node *node);
void *ctl_priv(const struct ctl_node *node);
/* ctl_ops - the handlers of a node (may be NULL): whose node it is. */
const struct ctl_ops *ctl_ops(const struct ctl_node *node);
bool ctl_is_dir(const struct ctl_node *node);
const char *ctl_name(const struct ctl_node *node);
struct ctl_node *ctl_parent(const struct ctl_node *node);
/* ctl_lookup - resolve an absolute path or one relative to cwd (NULL: the
 * root). "." and ".." are handled (".." of the root is the root), repeated
 * slashes count as one, a trailing slash is allowed after a directory.
 * Returns 0, -ENOENT (also for "") or -ENOTDIR (a file used as a directory,
 * or followed by a slash). */
int ctl_lookup(struct ctl_node *cwd, const char *path, struct ctl_node **out);
/* ctl_path - the absolute path of node into buf (truncated to fit, always
 * NUL-terminated); returns the length of the whole path, as snprintf. */
size_t ctl_path(const struct ctl_node *node, char *buf, size_t size);
/* Iterate children in creation order: first, then next until NULL. */
struct ctl_node *ctl_first_child(const struct ctl_node *dir);
struct ctl_node *ctl_next_sibling(const struct ctl_node *node);

/* The tree lock (see the top of this file). */
void ctl_lock(void);
void ctl_unlock(void);

/* Largest explanation of a failure, with its NUL. */
#define CTL_WHY_MAX 128

/*
 * ctl_error - for handlers: record the explanation of a failure, and return
 * -err, so a handler can write: return ctl_error(EBUSY, "domain has tasks").
 * Called with the tree lock held (handlers are).
 */
int ctl_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Path operations: each takes the tree lock, resolves path from the root
 * (an absolute path; "." and ".." allowed), does one thing, and releases
 * the lock. Each returns 0 (or a length) or a negative errno; on failure,
 * if why is not NULL, the explanation (the handler's, from ctl_error, or
 * one of ctlfs's own) is copied to why, a buffer of CTL_WHY_MAX bytes.
 */
/* ctl_read - the text of a file into buf; its length, -EISDIR, -EINVAL
 * (no read handler) or the handler's error. */
int ctl_read(const char *path, char *buf, size_t size, char *why);
/* ctl_write - hand value to a file's write handler; 0, -EISDIR, -EINVAL
 * (no write handler) or the handler's error. */
int ctl_write(const char *path, const char *value, char *why);
/* ctl_mkdir - make the directory path with its parent's mkdir handler;
 * -EEXIST, -EPERM (no handler), -EINVAL (bad name) or the handler's. */
int ctl_mkdir(const char *path, char *why);
/* ctl_rmdir - remove the directory path with its rmdir handler; -ENOTDIR,
 * -EPERM (no handler), -EBUSY (the root), -EINVAL ("." or "..") or the
 * handler's. */
int ctl_rmdir(const char *path, char *why);
/* ctl_rmtree - remove the directory path and everything below it with its
 * rmtree handler; -ENOTDIR, -EPERM (no handler), -EBUSY (the root),
 * -EINVAL ("." or "..") or the handler's. */
int ctl_rmtree(const char *path, char *why);
/* ctl_list - the names of a directory's children into buf, one per line,
 * in creation order (a file: its own name); returns the length. A listing
 * that does not fit ends with a line "...". */
int ctl_list(const char *path, char *buf, size_t size, char *why);
/* ctl_stat - does path exist: its canonical absolute path into abs, and
 * whether it is a directory. -E2BIG if the path does not fit in size. */
int ctl_stat(const char *path, char *abs, size_t size, bool *is_dir,
	     char *why);

#endif
