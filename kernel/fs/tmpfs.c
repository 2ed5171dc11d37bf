// SPDX-License-Identifier: MIT
/*
 * kernel/fs/tmpfs.c - /tmp: directories whose entries and inodes are charged
 * to the domain of the task that makes them (see kernel/fs/tmpfs.h).
 *
 * /tmp is a directory of the control tree whose handlers are this file's:
 * mkdir makes an inode and a directory entry (a ctl node with the same
 * handlers), rmdir removes an empty one, rmtree a whole subtree. The
 * control tree does the rest (lookup, ls, cd, paths), under its lock,
 * which every function here runs under.
 *
 * An inode is freed when its last reference goes: its directory entry's
 * (dropped when the entry is removed) and those of tasks working in it.
 * Freeing an object of a domain's child cache may give back the domain's
 * last page, and a removed domain goes with it: `rm -r` of what a domain
 * made is what lets nr_dying_descendants drop back to 0.
 */
#include "kernel/fs/tmpfs.h"

#include <errno.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "mm/slab.h"

static struct kmem_cache *tmpfs_inode_cache;
static struct tmpfs_inode *tmpfs_root;  /* /tmp's own inode */
static unsigned long next_ino = 1;      /* under ctl_lock */

static const struct ctl_ops tmpfs_dir_ops;

/* inode_of - the inode of node if it is a directory of /tmp, else NULL. */
static struct tmpfs_inode *inode_of(struct ctl_node *node)
{
	return ctl_ops(node) == &tmpfs_dir_ops ? ctl_priv(node) : NULL;
}

/* iput - drop a reference; the last one frees the inode. */
static void iput(struct tmpfs_inode *inode)
{
	if (--inode->refcnt > 0)
		return;
	if (inode->refcnt < 0 || inode->dentry)
		panic("tmpfs: inode %lu: last reference dropped with refcnt %d "
		      "while %s (an inode lives while its entry is in the "
		      "tree)", inode->ino, inode->refcnt,
		      inode->dentry ? "still linked" : "unlinked");
	kmem_cache_free(tmpfs_inode_cache, inode);
}

/*
 * make_dir - a new directory name in dir: its inode, then its entry, both
 * charged to the current task's domain; undone if either cannot be had.
 * The name is valid and not taken (checked by the callers).
 */
static int make_dir(struct ctl_node *dir, const char *name)
{
	struct tmpfs_inode *inode;
	struct ctl_node *node;

	inode = kmem_cache_alloc(tmpfs_inode_cache, GFP_KERNEL | __GFP_NOWARN);
	if (!inode)
		return ctl_error(ENOMEM, "out of memory (or over the domain's "
				 "kmem limit) for the inode of %s", name);
	node = ctl_create_dir_gfp(dir, name, &tmpfs_dir_ops, inode,
				  GFP_ACCOUNT | __GFP_NOWARN);
	if (!node) {
		kmem_cache_free(tmpfs_inode_cache, inode);
		return ctl_error(ENOMEM, "out of memory (or over the domain's "
				 "kmem limit) for the entry of %s", name);
	}
	inode->ino = next_ino++;
	inode->refcnt = 1;  /* its entry's */
	inode->dentry = node;
	return 0;
}

/* unlink_dir - take an empty directory's entry out of the tree and drop
 * the entry's reference on the inode. */
static void unlink_dir(struct ctl_node *node)
{
	struct tmpfs_inode *inode = ctl_priv(node);

	inode->dentry = NULL;
	ctl_remove(node);
	iput(inode);
}

/* --- the handlers: mkdir, rmdir, rm -r ----------------------------------- */

static int tmpfs_mkdir(struct ctl_node *dir, const char *name)
{
	return make_dir(dir, name);
}

static int tmpfs_rmdir(struct ctl_node *node)
{
	if (inode_of(node) == tmpfs_root)
		return ctl_error(EBUSY, "/tmp is where the filesystem is "
				 "mounted: it cannot be removed");
	if (ctl_first_child(node))
		return ctl_error(EBUSY, "directory not empty (rm -r removes "
				 "it with what is in it)");
	unlink_dir(node);
	return 0;
}

/*
 * tmpfs_rmtree - remove top and everything below it, without recursion
 * (mkdirloop makes chains thousands deep, and a kernel stack is 16 KiB):
 * go down to a leaf, remove it, go back up to its parent, and repeat
 * until top itself is removed. Each directory is visited a bounded number
 * of times: the walk is linear in the size of the subtree.
 */
static int tmpfs_rmtree(struct ctl_node *top)
{
	struct ctl_node *node = top;

	if (inode_of(top) == tmpfs_root)
		return ctl_error(EBUSY, "/tmp is where the filesystem is "
				 "mounted: it cannot be removed");
	for (;;) {
		struct ctl_node *child, *parent;

		while ((child = ctl_first_child(node)))
			node = child;
		parent = ctl_parent(node);
		if (node == top) {
			unlink_dir(node);
			return 0;
		}
		unlink_dir(node);
		node = parent;
	}
}

static const struct ctl_ops tmpfs_dir_ops = {
	.mkdir = tmpfs_mkdir,
	.rmdir = tmpfs_rmdir,
	.rmtree = tmpfs_rmtree,
};

int tmpfs_init(void)
{
	struct ctl_node *node;

	/* Accounted: a domain's inodes come from its own child cache. */
	tmpfs_inode_cache = kmem_cache_create("tmpfs_inode",
					      sizeof(struct tmpfs_inode), 0,
					      SLAB_ACCOUNT);
	if (!tmpfs_inode_cache)
		return -ENOMEM;
	tmpfs_root = kmem_cache_alloc(tmpfs_inode_cache, GFP_KERNEL);
	if (!tmpfs_root)
		return -ENOMEM;
	node = ctl_create_dir(NULL, "tmp", &tmpfs_dir_ops, tmpfs_root);
	if (!node)
		return -ENOMEM;
	tmpfs_root->ino = next_ino++;
	tmpfs_root->refcnt = 1;  /* its entry's, never dropped */
	tmpfs_root->dentry = node;
	return 0;
}

/* --- working directories, for programs ----------------------------------- */

int tmpfs_open_dir(const char *path, struct tmpfs_inode **out)
{
	struct ctl_node *node;
	int ret;

	ctl_lock();
	ret = ctl_lookup(NULL, path, &node);
	if (ret == 0 && !inode_of(node))
		ret = -ENOTDIR;
	if (ret == 0) {
		*out = inode_of(node);
		(*out)->refcnt++;
	}
	ctl_unlock();
	return ret;
}

void tmpfs_put(struct tmpfs_inode *inode)
{
	ctl_lock();
	iput(inode);
	ctl_unlock();
}

/* child_of - the subdirectory name of dir (a linked inode), or NULL. */
static struct ctl_node *child_of(struct tmpfs_inode *dir, const char *name)
{
	for (struct ctl_node *c = ctl_first_child(dir->dentry); c;
	     c = ctl_next_sibling(c))
		if (strcmp(ctl_name(c), name) == 0)
			return c;
	return NULL;
}

int tmpfs_mkdir_at(struct tmpfs_inode *dir, const char *name)
{
	int ret;

	ctl_lock();
	if (!dir->dentry)
		ret = -ENOENT;  /* removed under our feet */
	else if (child_of(dir, name))
		ret = -EEXIST;
	else if (strlen(name) > CTL_NAME_MAX || !*name || strchr(name, '/') ||
		 !strcmp(name, ".") || !strcmp(name, ".."))
		ret = -EINVAL;
	else
		ret = make_dir(dir->dentry, name);
	ctl_unlock();
	return ret;
}

int tmpfs_chdir_at(struct tmpfs_inode **cwd, const char *name)
{
	struct tmpfs_inode *old = *cwd, *next = NULL;
	struct ctl_node *child;

	ctl_lock();
	child = old->dentry ? child_of(old, name) : NULL;
	if (child)
		next = inode_of(child);
	if (next) {
		next->refcnt++;
		iput(old);
		*cwd = next;
	}
	ctl_unlock();
	return next ? 0 : -ENOENT;
}
