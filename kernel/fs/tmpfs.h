/* SPDX-License-Identifier: MIT */
/*
 * kernel/fs/tmpfs.h - /tmp, a small in-memory filesystem of directories
 * (Linux: mm/shmem.c's tmpfs, the part that is directories).
 *
 * It is what the 2012 series' cover letter used to show why dentries and
 * inodes must be accounted: `while true; do mkdir x; cd x; done` in a
 * cgroup eats kernel memory without any task, stack or user page to show
 * for it. Here each directory is
 *
 *   a directory entry   a node of the control tree (kernel/fs/ctlfs.h) - its
 *                       name, parent and children - from kmalloc with
 *                       GFP_ACCOUNT: "kmalloc-128(A)" in /proc/slabinfo
 *   an inode            struct tmpfs_inode, from the SLAB_ACCOUNT cache
 *                       "tmpfs_inode": "tmpfs_inode(A)"
 *
 * both charged to the domain of the task that makes the directory (the
 * shell's own mkdir, a system task's, is charged to nobody). The shell's
 * ls, cd, pwd, mkdir and rmdir work in /tmp as anywhere in the tree, and
 * `rm -r PATH` removes a directory and everything below it. There are no
 * files: `echo VALUE > /tmp/x` is EISDIR or ENOENT.
 *
 * Locking: the control tree's lock (ctl_lock) protects every directory
 * and inode, reference counts included.
 */
#ifndef KERNEL_TMPFS_H
#define KERNEL_TMPFS_H

/*
 * struct tmpfs_inode - a directory's inode. It lives while its entry is
 * in the tree or a task has it as its working directory (mkdirloop): a
 * removed directory can still be a task's working directory, where
 * nothing can be made any more (ENOENT), as in Linux.
 */
struct tmpfs_inode {
	unsigned long ino;         /* inode number, unique, never reused */
	int refcnt;                /* its entry's, and each task's cwd */
	struct ctl_node *dentry;   /* its directory entry; NULL once removed */
};

/* tmpfs_init - create /tmp and the inode cache; once, at boot. Returns 0
 * or -ENOMEM. */
int tmpfs_init(void);

/*
 * For programs (kernel/programs/programs.c mkdirloop): a working directory held
 * by a reference, not by a path - a path would outgrow any buffer.
 *
 * tmpfs_open_dir - the directory at the absolute path (/tmp or below),
 *   with a reference. Returns 0, -ENOENT, or -ENOTDIR (not a directory
 *   of /tmp).
 * tmpfs_put - drop the reference.
 * tmpfs_mkdir_at - make directory name in dir, charged to the current
 *   task's domain. Returns 0, -EEXIST, -ENOENT (dir has been removed),
 *   -EINVAL (bad name) or -ENOMEM (out of memory, or the domain's limit).
 * tmpfs_chdir_at - *cwd becomes its subdirectory name (the reference moves
 *   with it). Returns 0 or -ENOENT.
 */
int tmpfs_open_dir(const char *path, struct tmpfs_inode **out);
void tmpfs_put(struct tmpfs_inode *inode);
int tmpfs_mkdir_at(struct tmpfs_inode *dir, const char *name);
int tmpfs_chdir_at(struct tmpfs_inode **cwd, const char *name);

#endif
