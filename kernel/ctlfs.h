/*
 * kernel/ctlfs.h - the in-memory tree of control files: /proc, /cgroup.
 *
 * Every node is a directory or a file; a file is a pair of handlers, read
 * and write, as a kernfs/cgroupfs file in Linux. A directory may have mkdir
 * and rmdir handlers (the /cgroup tree creates a domain on mkdir). The shell
 * is the only user interface to the tree.
 *
 * Handlers return a negative errno (-EINVAL, ...) on failure, and must then
 * have changed nothing.
 */
#ifndef KERNEL_CTLFS_H
#define KERNEL_CTLFS_H

#include <stdbool.h>
#include <stddef.h>

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
	 * EPERM. mkdir creates the child node itself (ctl_create_dir). */
	int (*mkdir)(struct ctl_node *dir, const char *name);
	int (*rmdir)(struct ctl_node *dir);
};

#define CTL_NAME_MAX 63
#define CTL_PATH_MAX 256
/* Largest output of one read handler. */
#define CTL_READ_MAX 8192

struct ctl_node *ctl_root(void);
/* ctl_create_dir/ctl_create_file - add a child; NULL if out of memory or
 * the name exists. priv is handed back by ctl_priv(). */
struct ctl_node *ctl_create_dir(struct ctl_node *parent, const char *name,
				const struct ctl_ops *ops, void *priv);
struct ctl_node *ctl_create_file(struct ctl_node *parent, const char *name,
				 const struct ctl_ops *ops, void *priv);
/* ctl_remove - unlink a node and free it and everything below it. */
void ctl_remove(struct ctl_node *node);
void *ctl_priv(const struct ctl_node *node);
bool ctl_is_dir(const struct ctl_node *node);
const char *ctl_name(const struct ctl_node *node);
struct ctl_node *ctl_parent(const struct ctl_node *node);
/* ctl_lookup - resolve an absolute path or one relative to cwd (".", ".."
 * handled). Returns 0, -ENOENT or -ENOTDIR. */
int ctl_lookup(struct ctl_node *cwd, const char *path, struct ctl_node **out);
/* ctl_path - the absolute path of node into buf. */
void ctl_path(const struct ctl_node *node, char *buf, size_t size);
/* Iterate children in creation order: first, then next until NULL. */
struct ctl_node *ctl_first_child(const struct ctl_node *dir);
struct ctl_node *ctl_next_sibling(const struct ctl_node *node);

#endif
