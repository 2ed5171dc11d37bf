/* SPDX-License-Identifier: MIT */
/*
 * kernel/fs/ctlfs.h - the in-memory tree of control files: /proc, /cgroup.
 *
 * Every node is a directory or a file; a file is a pair of handlers, read
 * (or show, for a long file) and write, as a kernfs/cgroupfs file in
 * Linux. A directory may have mkdir and rmdir handlers (the /cgroup tree
 * creates a domain on mkdir). The shell is the only user interface to the
 * tree.
 *
 * Handlers return a negative errno (-EINVAL, ...) on failure, and must then
 * have changed nothing. A handler explains a failure with ctl_error(), which
 * the shell prints as "error: ENAME: explanation".
 *
 * Locking. One lock, the tree lock (ctl_lock), protects the whole tree, as
 * cgroup_mutex does in Linux. Everything that looks at or changes nodes
 * holds it: lookups, iteration, ctl_create_*, ctl_remove, and the calls of
 * handlers. The path operations at the end of this file (ctl_read,
 * ctl_read_at, ctl_write, ctl_mkdir, ctl_rmdir, ctl_list_at,
 * ctl_stat) take it themselves and hand back only copies (text, names,
 * paths), never a node: they are what the shell and other tasks call,
 * from any CPU. Handlers run with the lock held, so
 *   - a mkdir/rmdir handler may call ctl_create_*() and ctl_remove()
 *     directly (it must not take the lock again, nor call a path
 *     operation);
 *   - handlers must not sleep: it is a spinlock.
 * Code that builds its part of the tree at boot, before other CPUs use it,
 * may call ctl_create_*() without the lock; later it takes ctl_lock().
 */
#ifndef KERNEL_CTLFS_H
#define KERNEL_CTLFS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "kernel/lib/emit.h"
#include "mm/gfp.h"

struct ctl_node;
struct ctl_seq;

struct ctl_ops {
	/* Write the file's contents to buf (NUL-terminated, at most size
	 * bytes with the NUL); return the length or -errno. NULL (and no
	 * show): the file cannot be read (EINVAL). */
	int (*read)(struct ctl_node *file, char *buf, size_t size);
	/* Instead of read, for a file that has no bound on its length (a
	 * line per slab cache of every domain, per task): print every
	 * record of the file, in order, each with one ctl_seq_printf();
	 * return 0 or -errno. See "Long files" below. */
	int (*show)(struct ctl_node *file, struct ctl_seq *seq);
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
	/* Directories whose children are made when first looked up (/proc:
	 * a directory per task would cost every fork): called by a lookup
	 * that finds no child called name[0..len). It may create that child
	 * (ctl_create_*) and return it; NULL: there is none (ENOENT). */
	struct ctl_node *(*lookup)(struct ctl_node *dir, const char *name,
				   size_t len);
};

#define CTL_NAME_MAX 63
#define CTL_PATH_MAX 256
/* The shell's buffer: the largest output of one read handler, and the
 * size of each piece of a long file (show) that cat prints. */
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
 * of the task making it (mm/memcg/memcg_slab.h). */
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
 * (no read handler) or the handler's error. A long file (show): its first
 * piece, as ctl_read_at from 0. */
int ctl_read(const char *path, char *buf, size_t size, char *why);
/*
 * ctl_read_at - the piece of a file that starts at record *pos: as many
 * whole records as fit in buf (a record longer than the whole buffer is
 * cut to fit); *pos moves past them. Returns the piece's length, 0 at the
 * end of the file, or an error as ctl_read. A file with a read handler is
 * one record: all of it at *pos 0, then nothing. Read from *pos = 0 until
 * it returns 0, and you have the whole file (see "Long files" below).
 */
int ctl_read_at(const char *path, size_t *pos, char *buf, size_t size,
		char *why);
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
/* ctl_list_at - the names of a directory's children, one per line, in
 * creation order (a file: its own name), in pieces as ctl_read_at: the
 * names from child number *pos on, as many whole ones as fit in buf, *pos
 * moved past them; returns the length, 0 when there are no more. */
int ctl_list_at(const char *path, size_t *pos, char *buf, size_t size,
		char *why);
/* ctl_stat - does path exist: its canonical absolute path into abs, and
 * whether it is a directory. -E2BIG if the path does not fit in size. */
int ctl_stat(const char *path, char *abs, size_t size, bool *is_dir,
	     char *why);

/*
 * Long files (kernel/fs/ctlfs_seq.c): the show handler and struct ctl_seq.
 *
 * A read handler writes its whole text into one buffer of CTL_READ_MAX
 * bytes: plenty for a counter or memory.stat, but nothing bounds
 * /proc/slabinfo - a line per child cache, up to MEMCG_CACHES_MAX per
 * domain, and domains nest without limit - nor a domain's tasks. So a
 * file like those has a show handler instead, as a Linux seq_file does:
 * it prints all the file's records (usually lines) in order, one
 * ctl_seq_printf() each, and the struct ctl_seq keeps only those of the
 * piece being read - from record seq->start on, as many whole ones as fit
 * in the buffer - and skips the others. ctl_read_at hands out one piece
 * and where the next one starts; the shell's cat prints piece after piece
 * until one is empty.
 *
 * Why pieces, and not one buffer sized for the worst case: there is no
 * worst case to size it for, and a large buffer would have to be kept
 * for a rare read or allocated when memory may be short - and reading
 * /proc/slabinfo while a domain runs out of memory is when it is wanted.
 * Pieces go through the same fixed buffer, whatever the length.
 *
 * The cost, as with Linux's seq_file over several read() calls: each piece
 * is made under the tree lock from the state at that moment. A record is
 * never torn, but one added or removed between two pieces shifts those
 * after it by one: a line may be missed or shown twice at the boundary.
 */
struct ctl_seq {
	char *buf;     /* the piece: whole records, NUL-terminated */
	size_t size;   /* of buf, with the NUL */
	size_t len;    /* bytes in buf */
	size_t start;  /* the first record to keep */
	size_t index;  /* the next record's number (records before start,
			* skipped, count too) */
	bool full;     /* a record did not fit: the piece ends before it */
};

/* ctl_seq_init - a piece of records from start on, into buf[0..size). */
void ctl_seq_init(struct ctl_seq *seq, char *buf, size_t size, size_t start);

/*
 * ctl_seq_printf - one record, formatted as printf: kept if it belongs to
 * the piece and fits whole, skipped (not even formatted) if it comes
 * before the piece. Returns false once the piece is full: the handler may
 * stop printing (anything it prints after that is dropped).
 */
bool ctl_seq_printf(struct ctl_seq *seq, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ctl_seq_vprintf - ctl_seq_printf with a va_list. */
bool ctl_seq_vprintf(struct ctl_seq *seq, const char *fmt, va_list ap);

/* ctl_seq_emitter - seq as a struct emitter (kernel/lib/emit.h), for a
 * printer that lives outside kernel/fs (mm/slabinfo.c, the scheduler):
 * each emitf() is one ctl_seq_printf(). */
struct emitter ctl_seq_emitter(struct ctl_seq *seq);

#endif
