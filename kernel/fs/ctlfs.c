// SPDX-License-Identifier: MIT
/*
 * kernel/fs/ctlfs.c - the tree of control files: nodes, lookup, paths.
 *
 * A node is a directory or a file. Each directory keeps its children on a
 * list in creation order; each node points to its parent (the root's parent
 * is NULL). Nodes come from kmalloc and hold their name (at most
 * CTL_NAME_MAX bytes), their handlers and a private pointer for whoever made
 * them. The operations on paths that the shell calls (ctl_read, ctl_write,
 * ...) are in kernel/fs/ctlfs_ops.c; both share the tree lock defined here.
 */
#include <errno.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/fs/ctlfs_internal.h"
#include "kernel/base/spinlock.h"
#include "mm/slab.h"

struct ctl_node {
	char name[CTL_NAME_MAX + 1];
	bool dir;
	const struct ctl_ops *ops;  /* may be NULL: no handlers */
	void *priv;
	struct ctl_node *parent;    /* NULL for the root */
	struct list_head children;  /* directories: children, oldest first */
	struct list_head sibling;   /* on parent->children */
};

static struct ctl_node ctl_root_node = {
	.name = "",
	.dir = true,
	.children = LIST_HEAD_INIT(ctl_root_node.children),
	.sibling = LIST_HEAD_INIT(ctl_root_node.sibling),
};

/*
 * The tree lock is held across whatever a handler does: rmdir drains the
 * per-CPU stocks and a kmem limit may patch the static key, both waiting
 * for every other CPU (smp_call_function_all). So it is a polled lock:
 * a CPU waiting for it keeps answering those calls, and cannot be the CPU
 * that never answers. (Linux holds cgroup_mutex, a sleeping lock, there.)
 */
static spinlock_t ctl_tree_lock = SPINLOCK_INIT_POLLED;

void ctl_lock(void)
{
	spin_lock_polled(&ctl_tree_lock);
}

void ctl_unlock(void)
{
	spin_unlock(&ctl_tree_lock);
}

struct ctl_node *ctl_root(void)
{
	return &ctl_root_node;
}

void *ctl_priv(const struct ctl_node *node)
{
	return node->priv;
}

bool ctl_is_dir(const struct ctl_node *node)
{
	return node->dir;
}

const char *ctl_name(const struct ctl_node *node)
{
	return node->name;
}

struct ctl_node *ctl_parent(const struct ctl_node *node)
{
	return node->parent;
}

const struct ctl_ops *ctl_ops(const struct ctl_node *node)
{
	return node->ops;
}

struct ctl_node *ctl_first_child(const struct ctl_node *dir)
{
	if (!dir->dir || list_empty(&dir->children))
		return NULL;
	return list_first_entry(&dir->children, struct ctl_node, sibling);
}

struct ctl_node *ctl_next_sibling(const struct ctl_node *node)
{
	if (!node->parent || node->sibling.next == &node->parent->children)
		return NULL;
	return list_entry(node->sibling.next, struct ctl_node, sibling);
}

bool ctl_name_valid(const char *name, size_t len)
{
	if (len == 0 || len > CTL_NAME_MAX)
		return false;
	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (name[i] <= ' ' || name[i] > '~' || name[i] == '/')
			return false;
	return true;
}

/* find_child - the child of dir called name[0..len), or NULL. */
static struct ctl_node *find_child(const struct ctl_node *dir,
				   const char *name, size_t len)
{
	struct ctl_node *child;

	if (len > CTL_NAME_MAX)
		return NULL;
	list_for_each_entry(child, &dir->children, sibling)
		if (strncmp(child->name, name, len) == 0 &&
		    child->name[len] == '\0')
			return child;
	return NULL;
}

static struct ctl_node *ctl_create(struct ctl_node *parent, const char *name,
				   bool dir, const struct ctl_ops *ops,
				   void *priv, gfp_t gfp)
{
	struct ctl_node *node;
	size_t len;

	if (!parent)
		parent = &ctl_root_node;
	if (!name || !parent->dir)
		return NULL;
	len = strlen(name);
	if (!ctl_name_valid(name, len) || find_child(parent, name, len))
		return NULL;
	node = kmalloc(sizeof(*node), gfp);
	if (!node)
		return NULL;
	memcpy(node->name, name, len + 1);
	node->dir = dir;
	node->ops = ops;
	node->priv = priv;
	node->parent = parent;
	INIT_LIST_HEAD(&node->children);
	list_add_tail(&node->sibling, &parent->children);
	return node;
}

struct ctl_node *ctl_create_dir(struct ctl_node *parent, const char *name,
				const struct ctl_ops *ops, void *priv)
{
	return ctl_create(parent, name, true, ops, priv, GFP_KERNEL);
}

struct ctl_node *ctl_create_dir_gfp(struct ctl_node *parent, const char *name,
				    const struct ctl_ops *ops, void *priv,
				    gfp_t gfp)
{
	return ctl_create(parent, name, true, ops, priv, gfp);
}

struct ctl_node *ctl_create_file(struct ctl_node *parent, const char *name,
				 const struct ctl_ops *ops, void *priv)
{
	return ctl_create(parent, name, false, ops, priv, GFP_KERNEL);
}

/*
 * ctl_remove frees a whole subtree without recursion (domains nest to any
 * depth, and a kernel stack is 16 KiB): go down to a leaf, free it, go back
 * up to its parent, and repeat until the top node itself is freed.
 */
void ctl_remove(struct ctl_node *top)
{
	struct ctl_node *node = top;

	if (top == &ctl_root_node)
		panic("ctl_remove: the root of the control tree");
	list_del_init(&top->sibling);
	for (;;) {
		struct ctl_node *parent;

		while (!list_empty(&node->children))
			node = list_first_entry(&node->children,
						struct ctl_node, sibling);
		if (node == top) {
			kfree(node);
			return;
		}
		parent = node->parent;
		list_del_init(&node->sibling);
		kfree(node);
		node = parent;
	}
}

/*
 * ctl_walk - resolve path[0..len) from cwd, one component at a time.
 *
 * Empty components (repeated or trailing slashes) are skipped; "." stays,
 * ".." goes to the parent (the root's is the root). Once a file is reached,
 * nothing may follow it, not even a slash: -ENOTDIR. A missing component is
 * -ENOENT. On failure *bad is set to the length of the prefix of path that
 * ends with the component that failed, for the explanation.
 */
int ctl_walk(struct ctl_node *cwd, const char *path, size_t len,
	     struct ctl_node **out, size_t *bad)
{
	struct ctl_node *node = cwd ? cwd : &ctl_root_node;
	size_t i = 0;

	if (len > 0 && path[0] == '/')
		node = &ctl_root_node;
	while (i < len) {
		size_t start, n;

		if (!node->dir) {
			*bad = i;
			return -ENOTDIR;
		}
		if (path[i] == '/') {
			i++;
			continue;
		}
		start = i;
		while (i < len && path[i] != '/')
			i++;
		n = i - start;
		if (n == 1 && path[start] == '.')
			continue;
		if (n == 2 && path[start] == '.' && path[start + 1] == '.') {
			if (node->parent)
				node = node->parent;
			continue;
		}
		struct ctl_node *child = find_child(node, path + start, n);

		if (!child && node->ops && node->ops->lookup)
			child = node->ops->lookup(node, path + start, n);
		node = child;
		if (!node) {
			*bad = i;
			return -ENOENT;
		}
	}
	*out = node;
	return 0;
}

int ctl_lookup(struct ctl_node *cwd, const char *path, struct ctl_node **out)
{
	size_t bad;

	if (!path || !*path)
		return -ENOENT;
	return ctl_walk(cwd, path, strlen(path), out, &bad);
}

size_t ctl_path(const struct ctl_node *node, char *buf, size_t size)
{
	const struct ctl_node *n;
	size_t total = 0, pos;

	for (n = node; n->parent; n = n->parent)
		total += 1 + strlen(n->name);
	if (total == 0)
		total = 1;  /* the root: "/" */
	if (size == 0)
		return total;

	/* Fill from the end; bytes from size - 1 on are cut off. */
	pos = total;
	if (size > 1)
		buf[0] = '/';
	for (n = node; n->parent; n = n->parent) {
		size_t len = strlen(n->name);

		pos -= len;
		for (size_t i = 0; i < len; i++)
			if (pos + i < size - 1)
				buf[pos + i] = n->name[i];
		pos--;
		if (pos < size - 1)
			buf[pos] = '/';
	}
	buf[total < size ? total : size - 1] = '\0';
	return total;
}
