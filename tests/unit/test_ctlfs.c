// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_ctlfs.c - the control-file tree (kernel/fs/ctlfs.c) and its
 * path operations (kernel/fs/ctlfs_ops.c): creating and removing nodes, path
 * lookup with ".", "..", repeated and trailing slashes, the errors, the
 * handlers' explanations, and mkdir/rmdir from several threads at once.
 * Nodes come from the real slab allocator on fake host memory; every test
 * checks that it gave back every object it took.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/fs/ctlfs.h"
#include "mm/slab.h"
#include "tests/unit/host_ctltree.h"
#include "tests/unit/host_mem.h"

static unsigned long objects_at_start;

/* slab_objects - kernel objects in use now, over all caches. */
static unsigned long slab_objects(void)
{
	struct kmem_cache *cache;
	unsigned long n = 0;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(cache, &slab_caches, list)
		n += kmem_cache_in_use(cache);
	spin_unlock(&slab_caches_lock);
	return n;
}

static int setup(void **state)
{
	slab_debug = true;
	host_mem_init(8u << 20);
	objects_at_start = slab_objects();
	assert_non_null(host_ctltree_create());
	return 0;
}

static int teardown(void **state)
{
	host_ctltree_remove();
	assert_null(ctl_first_child(ctl_root()));
	assert_int_equal(slab_objects(), objects_at_start);
	return 0;
}

/* lookup - ctl_lookup from cwd, returning the node's path or the error. */
static const char *lookup(struct ctl_node *cwd, const char *path)
{
	static char buf[CTL_PATH_MAX];
	struct ctl_node *node = NULL;
	int ret = ctl_lookup(cwd, path, &node);

	if (ret == -ENOENT)
		return "ENOENT";
	if (ret == -ENOTDIR)
		return "ENOTDIR";
	if (ret != 0)
		return "?";
	ctl_path(node, buf, sizeof(buf));
	return buf;
}

static struct ctl_node *node_at(const char *path)
{
	struct ctl_node *node = NULL;

	assert_int_equal(ctl_lookup(NULL, path, &node), 0);
	return node;
}

static void test_lookup_absolute(void **state)
{
	assert_string_equal(lookup(NULL, "/"), "/");
	assert_string_equal(lookup(NULL, "/test"), "/test");
	assert_string_equal(lookup(NULL, "/test/value"), "/test/value");
	assert_string_equal(lookup(NULL, "//test///value"), "/test/value");
	assert_string_equal(lookup(NULL, "/test/"), "/test");
	assert_string_equal(lookup(NULL, "/test//"), "/test");
	assert_string_equal(lookup(NULL, "///"), "/");
	assert_string_equal(lookup(NULL, "/test/./cg/."), "/test/cg");
	assert_string_equal(lookup(NULL, "/test/cg/.."), "/test");
	assert_string_equal(lookup(NULL, "/test/cg/../../test/ro"), "/test/ro");
	assert_string_equal(lookup(NULL, "/.."), "/");
	assert_string_equal(lookup(NULL, "/../../test"), "/test");
}

static void test_lookup_relative(void **state)
{
	struct ctl_node *test = node_at("/test");
	struct ctl_node *cg = node_at("/test/cg");

	assert_string_equal(lookup(test, "value"), "/test/value");
	assert_string_equal(lookup(test, "./value"), "/test/value");
	assert_string_equal(lookup(test, "cg"), "/test/cg");
	assert_string_equal(lookup(test, "."), "/test");
	assert_string_equal(lookup(test, ".."), "/");
	assert_string_equal(lookup(cg, "../ro"), "/test/ro");
	assert_string_equal(lookup(cg, "../../.."), "/");
	assert_string_equal(lookup(cg, "/test"), "/test");
	assert_string_equal(lookup(NULL, "test/ro"), "/test/ro");
}

static void test_lookup_errors(void **state)
{
	struct ctl_node *test = node_at("/test");

	assert_string_equal(lookup(NULL, ""), "ENOENT");
	assert_string_equal(lookup(NULL, "/nothing"), "ENOENT");
	assert_string_equal(lookup(NULL, "/test/nothing"), "ENOENT");
	assert_string_equal(lookup(NULL, "/nothing/.."), "ENOENT");
	assert_string_equal(lookup(test, "nothing"), "ENOENT");
	assert_string_equal(lookup(test, "VALUE"), "ENOENT");
	assert_string_equal(lookup(test, "valu"), "ENOENT");
	assert_string_equal(lookup(test, "values"), "ENOENT");
	/* a file used as a directory */
	assert_string_equal(lookup(NULL, "/test/value/x"), "ENOTDIR");
	assert_string_equal(lookup(NULL, "/test/value/"), "ENOTDIR");
	assert_string_equal(lookup(NULL, "/test/value/."), "ENOTDIR");
	assert_string_equal(lookup(NULL, "/test/value/.."), "ENOTDIR");
	assert_string_equal(lookup(test, "ro/x/y"), "ENOTDIR");
	/* a name longer than any node can have */
	char longname[200];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_string_equal(lookup(test, longname), "ENOENT");
}

static void test_create_rules(void **state)
{
	struct ctl_node *test = node_at("/test");
	struct ctl_node *ro = node_at("/test/ro");
	char name[CTL_NAME_MAX + 2];

	ctl_lock();
	/* duplicates, bad names, a file as parent */
	assert_null(ctl_create_file(test, "value", NULL, NULL));
	assert_null(ctl_create_dir(test, "cg", NULL, NULL));
	assert_null(ctl_create_file(test, "", NULL, NULL));
	assert_null(ctl_create_file(test, ".", NULL, NULL));
	assert_null(ctl_create_file(test, "..", NULL, NULL));
	assert_null(ctl_create_file(test, "a/b", NULL, NULL));
	assert_null(ctl_create_file(test, "a b", NULL, NULL));
	assert_null(ctl_create_file(test, "a\nb", NULL, NULL));
	assert_null(ctl_create_file(test, NULL, NULL, NULL));
	assert_null(ctl_create_file(ro, "child", NULL, NULL));

	/* 63 bytes is the longest name */
	memset(name, 'n', CTL_NAME_MAX + 1);
	name[CTL_NAME_MAX + 1] = '\0';
	assert_null(ctl_create_file(test, name, NULL, NULL));
	name[CTL_NAME_MAX] = '\0';
	struct ctl_node *n = ctl_create_file(test, name, NULL, (void *)0x1234);
	assert_non_null(n);
	assert_string_equal(ctl_name(n), name);
	assert_ptr_equal(ctl_priv(n), (void *)0x1234);
	assert_ptr_equal(ctl_parent(n), test);
	assert_false(ctl_is_dir(n));
	/* "..." and ".x" are ordinary names */
	assert_non_null(ctl_create_file(test, "...", NULL, NULL));
	assert_non_null(ctl_create_dir(test, ".x", NULL, NULL));
	ctl_unlock();

	assert_string_equal(lookup(test, name), "/test/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn");
	assert_string_equal(lookup(test, "..."), "/test/...");
	assert_string_equal(lookup(test, ".x/"), "/test/.x");
	assert_null(ctl_parent(ctl_root()));
	assert_true(ctl_is_dir(ctl_root()));
}

static void test_children_in_creation_order(void **state)
{
	static const char *const names[] = {"value", "size", "ro", "wo",
					    "empty", "noline", "fail", "cg",
					    "long"};
	struct ctl_node *c = ctl_first_child(node_at("/test"));

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_non_null(c);
		assert_string_equal(ctl_name(c), names[i]);
		c = ctl_next_sibling(c);
	}
	assert_null(c);
	assert_null(ctl_first_child(node_at("/test/cg")));
	assert_null(ctl_first_child(node_at("/test/value")));
	assert_null(ctl_next_sibling(ctl_root()));
}

static void test_path(void **state)
{
	struct ctl_node *value = node_at("/test/value");
	char buf[CTL_PATH_MAX];

	assert_int_equal(ctl_path(ctl_root(), buf, sizeof(buf)), 1);
	assert_string_equal(buf, "/");
	assert_int_equal(ctl_path(value, buf, sizeof(buf)), 11);
	assert_string_equal(buf, "/test/value");
	/* truncated, but always terminated, and the full length returned */
	assert_int_equal(ctl_path(value, buf, 6), 11);
	assert_string_equal(buf, "/test");
	assert_int_equal(ctl_path(value, buf, 7), 11);
	assert_string_equal(buf, "/test/");
	assert_int_equal(ctl_path(value, buf, 1), 11);
	assert_string_equal(buf, "");
	assert_int_equal(ctl_path(value, buf, 0), 11);
	assert_int_equal(ctl_path(value, buf, 12), 11);
	assert_string_equal(buf, "/test/value");
}

static void test_remove_subtree(void **state)
{
	struct ctl_node *test = node_at("/test");
	unsigned long before = slab_objects();
	struct ctl_node *d;
	char name[16];

	/* a deep chain and a wide directory */
	ctl_lock();
	d = ctl_create_dir(test, "deep", NULL, NULL);
	for (int i = 0; i < 200; i++)
		d = ctl_create_dir(d, "d", NULL, NULL);
	assert_non_null(d);
	d = ctl_create_dir(test, "wide", NULL, NULL);
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		assert_non_null(ctl_create_file(d, name, NULL, NULL));
	}
	ctl_unlock();
	assert_int_equal(slab_objects(), before + 302);
	assert_string_equal(lookup(test, "deep/d/d/d/../d"), "/test/deep/d/d/d");

	ctl_lock();
	ctl_remove(node_at("/test/deep"));
	ctl_remove(node_at("/test/wide/f50"));
	ctl_unlock();
	assert_string_equal(lookup(test, "deep"), "ENOENT");
	assert_string_equal(lookup(test, "wide/f50"), "ENOENT");
	assert_string_equal(lookup(test, "wide/f51"), "/test/wide/f51");
	ctl_lock();
	ctl_remove(node_at("/test/wide"));
	ctl_unlock();
	assert_int_equal(slab_objects(), before);
}

static void test_remove_root_panics(void **state)
{
	HOST_EXPECT_PANIC(ctl_remove(ctl_root()), "root");
}

/* --- path operations ---------------------------------------------------- */

static void test_read(void **state)
{
	char buf[CTL_READ_MAX], why[CTL_WHY_MAX];

	assert_int_equal(ctl_read("/test/value", buf, sizeof(buf), why), 8);
	assert_string_equal(buf, "initial\n");
	assert_int_equal(ctl_read("/test/cg/../ro", buf, sizeof(buf), why), 10);
	assert_string_equal(buf, "read only\n");
	assert_int_equal(ctl_read("/test/empty", buf, sizeof(buf), why), 0);
	assert_string_equal(buf, "");
	/* a small buffer: the text is cut, always terminated */
	assert_int_equal(ctl_read("/test/ro", buf, 5, why), 4);
	assert_string_equal(buf, "read");

	assert_int_equal(ctl_read("/test", buf, sizeof(buf), why), -EISDIR);
	assert_string_equal(why, "/test is a directory");
	assert_int_equal(ctl_read("/test/wo", buf, sizeof(buf), why), -EINVAL);
	assert_string_equal(why, "/test/wo cannot be read");
	assert_int_equal(ctl_read("/test/fail", buf, sizeof(buf), why), -EBUSY);
	assert_string_equal(why, "test file is busy");
	assert_string_equal(buf, "");
	assert_int_equal(ctl_read("/test/none", buf, sizeof(buf), why), -ENOENT);
	assert_string_equal(why, "/test/none does not exist");
	assert_int_equal(ctl_read("/x/y/z", buf, sizeof(buf), why), -ENOENT);
	assert_string_equal(why, "/x does not exist");
	assert_int_equal(ctl_read("/test/ro/x", buf, sizeof(buf), why), -ENOTDIR);
	assert_string_equal(why, "/test/ro is not a directory");
	assert_int_equal(ctl_read("", buf, sizeof(buf), why), -ENOENT);
	assert_int_equal(ctl_read(NULL, buf, sizeof(buf), NULL), -ENOENT);
}

static void test_write(void **state)
{
	char buf[CTL_READ_MAX], why[CTL_WHY_MAX];

	assert_int_equal(ctl_write("/test/value", "hello", why), 0);
	ctl_read("/test/value", buf, sizeof(buf), why);
	assert_string_equal(buf, "hello\n");
	/* a refused value changes nothing */
	assert_int_equal(ctl_write("/test/value", "bad", why), -EINVAL);
	assert_string_equal(why, "'bad' is refused");
	ctl_read("/test/value", buf, sizeof(buf), why);
	assert_string_equal(buf, "hello\n");

	assert_int_equal(ctl_write("/test/size", "8M", why), 0);
	ctl_read("/test/size", buf, sizeof(buf), why);
	assert_string_equal(buf, "8388608\n");
	assert_int_equal(ctl_write("/test/size", "1.0", why), -EINVAL);
	assert_string_equal(why, "'1.0' is not a size");
	assert_int_equal(ctl_write("/test/size", "-1", why), 0);
	ctl_read("/test/size", buf, sizeof(buf), why);
	assert_string_equal(buf, "9223372036854775807\n");

	assert_int_equal(ctl_write("/test/wo", "", why), 0);
	assert_int_equal(ctl_write("/test/ro", "1", why), -EINVAL);
	assert_string_equal(why, "/test/ro cannot be written");
	assert_int_equal(ctl_write("/test/cg", "1", why), -EISDIR);
	/* a handler without an explanation gets a default one */
	assert_int_equal(ctl_write("/test/fail", "1", why), -ENOSPC);
	assert_string_equal(why, "cannot write to /test/fail");
	assert_int_equal(ctl_write("/test/none", "1", NULL), -ENOENT);
}

static void test_mkdir_rmdir(void **state)
{
	char buf[CTL_READ_MAX], why[CTL_WHY_MAX];

	assert_int_equal(ctl_mkdir("/test/cg/A", why), 0);
	assert_int_equal(ctl_mkdir("/test/cg/B/", why), 0);
	assert_int_equal(ctl_mkdir("//test//cg//A//C", why), 0);
	assert_int_equal(host_ctl_list("/test/cg", buf, sizeof(buf), why), 4);
	assert_string_equal(buf, "A\nB\n");
	assert_int_equal(host_ctl_list("/test/cg/A", buf, sizeof(buf), why), 8);
	assert_string_equal(buf, "limit\nC\n");

	assert_int_equal(ctl_mkdir("/test/cg/A", why), -EEXIST);
	assert_string_equal(why, "/test/cg/A exists");
	assert_int_equal(ctl_mkdir("/test/cg/A/limit", why), -EEXIST);
	assert_int_equal(ctl_mkdir("/test/cg/.", why), -EEXIST);
	assert_int_equal(ctl_mkdir("/test/cg/..", why), -EEXIST);
	assert_int_equal(ctl_mkdir("/", why), -EEXIST);
	assert_int_equal(ctl_mkdir("//", why), -EEXIST);
	assert_int_equal(ctl_mkdir("/test/X", why), -EPERM);
	assert_string_equal(why, "cannot make directories in /test");
	assert_int_equal(ctl_mkdir("/X", why), -EPERM);
	assert_int_equal(ctl_mkdir("/test/nothing/X", why), -ENOENT);
	assert_string_equal(why, "/test/nothing does not exist");
	assert_int_equal(ctl_mkdir("/test/ro/X", why), -ENOTDIR);
	assert_int_equal(ctl_mkdir("/test/cg/0123456789012345678901234567890123456789012345678901234567890123", why), -EINVAL);
	assert_int_equal(ctl_mkdir("", why), -ENOENT);

	assert_int_equal(ctl_rmdir("/test/cg/A", why), -EBUSY);
	assert_string_equal(why, "domain A has domains in it");
	assert_int_equal(ctl_rmdir("/test/cg/A/limit", why), -ENOTDIR);
	assert_int_equal(ctl_rmdir("/test/cg/A/.", why), -EINVAL);
	assert_int_equal(ctl_rmdir("/test/cg/A/C/..", why), -EINVAL);
	assert_int_equal(ctl_rmdir("/", why), -EBUSY);
	assert_int_equal(ctl_rmdir("/test/..", why), -EBUSY);
	assert_int_equal(ctl_rmdir("/test/cg", why), -EPERM);
	assert_string_equal(why, "/test/cg cannot be removed");
	assert_int_equal(ctl_rmdir("/test/cg/Z", why), -ENOENT);
	assert_int_equal(ctl_rmdir("/test/cg/A/C/", why), 0);
	assert_int_equal(ctl_rmdir("/test/cg/A", why), 0);
	assert_int_equal(ctl_rmdir("/test/cg/B", why), 0);
	assert_int_equal(host_ctl_list("/test/cg", buf, sizeof(buf), why), 0);
	assert_string_equal(buf, "");
}

static void test_list(void **state)
{
	char buf[CTL_READ_MAX], why[CTL_WHY_MAX];

	assert_int_equal(host_ctl_list("/", buf, sizeof(buf), why), 5);
	assert_string_equal(buf, "test\n");
	host_ctl_list("/test", buf, sizeof(buf), why);
	assert_string_equal(buf, "value\nsize\nro\nwo\nempty\nnoline\nfail\ncg\nlong\n");
	/* a file lists as its name */
	assert_int_equal(host_ctl_list("/test/cg/../ro", buf, sizeof(buf), why), 3);
	assert_string_equal(buf, "ro\n");
	/* a piece holds whole names only */
	assert_int_equal(host_ctl_list("/test", buf, 20, why), 17);
	assert_string_equal(buf, "value\nsize\nro\nwo\n");
	assert_int_equal(host_ctl_list("/nothing", buf, sizeof(buf), why), -ENOENT);
}

/* long_text - the whole text of /test/long. */
static const char *long_text(void)
{
	static char text[HOST_LONG_LINES * 24];
	size_t len = 0;

	for (int i = 1; i <= HOST_LONG_LINES; i++)
		len += snprintf(text + len, sizeof(text) - len, "line %d of %d\n",
				i, HOST_LONG_LINES);
	return text;
}

/* read_all - ctl_read_at piece after piece (buffers of size bytes) until
 * an empty one; the pieces, joined; each must end with a whole line. */
static const char *read_all(const char *path, size_t size, int *pieces)
{
	static char all[HOST_LONG_LINES * 24];
	char buf[CTL_READ_MAX], why[CTL_WHY_MAX];
	size_t pos = 0, len = 0, last = 0;
	int ret;

	assert_true(size <= sizeof(buf));
	*pieces = 0;
	while ((ret = ctl_read_at(path, &pos, buf, size, why)) > 0) {
		assert_int_equal(ret, strlen(buf));
		assert_int_equal(buf[ret - 1], '\n');
		assert_true(pos > last);  /* each piece moves on */
		last = pos;
		assert_true(len + ret < sizeof(all));
		memcpy(all + len, buf, ret);
		len += ret;
		(*pieces)++;
	}
	assert_int_equal(ret, 0);
	all[len] = '\0';
	return all;
}

/* A long file (a show handler) is read whole, in pieces of whole lines. */
static void test_read_long(void **state)
{
	char buf[CTL_READ_MAX], why[CTL_WHY_MAX];
	size_t pos;
	int pieces, ret;

	assert_true(strlen(long_text()) > CTL_READ_MAX);
	assert_string_equal(read_all("/test/long", CTL_READ_MAX, &pieces),
			    long_text());
	assert_int_equal(pieces, 3);
	assert_string_equal(read_all("/test/long", 100, &pieces), long_text());
	assert_true(pieces > HOST_LONG_LINES / 6);

	/* where a piece ends, the next begins; past the end, nothing */
	pos = 499;
	assert_int_equal(ctl_read_at("/test/long", &pos, buf, 40, why), 34);
	assert_string_equal(buf, "line 500 of 1000\nline 501 of 1000\n");
	assert_int_equal(pos, 501);
	pos = HOST_LONG_LINES;
	assert_int_equal(ctl_read_at("/test/long", &pos, buf, sizeof(buf), why), 0);
	assert_string_equal(buf, "");
	assert_int_equal(pos, HOST_LONG_LINES);
	pos = HOST_LONG_LINES + 5;
	assert_int_equal(ctl_read_at("/test/long", &pos, buf, sizeof(buf), why), 0);
	assert_int_equal(pos, HOST_LONG_LINES + 5);

	/* a line longer than the whole buffer is cut, and read past */
	pos = 0;
	assert_int_equal(ctl_read_at("/test/long", &pos, buf, 5, why), 4);
	assert_string_equal(buf, "line");
	assert_int_equal(pos, 1);

	/* ctl_read: the first piece */
	ret = ctl_read("/test/long", buf, sizeof(buf), why);
	assert_true(ret > CTL_READ_MAX - 20 && ret < CTL_READ_MAX);
	assert_int_equal(strncmp(buf, long_text(), ret), 0);
	assert_int_equal(buf[ret - 1], '\n');

	/* a file with a read handler is one piece */
	assert_string_equal(read_all("/test/value", CTL_READ_MAX, &pieces),
			    "initial\n");
	assert_int_equal(pieces, 1);
	pos = 1;
	assert_int_equal(ctl_read_at("/test/value", &pos, buf, sizeof(buf), why), 0);
	assert_string_equal(read_all("/test/empty", CTL_READ_MAX, &pieces), "");
	assert_int_equal(pieces, 0);

	/* the errors of ctl_read, at any position; a read handler is not
	 * called again once its text was read */
	pos = 3;
	assert_int_equal(ctl_read_at("/test", &pos, buf, sizeof(buf), why), -EISDIR);
	assert_int_equal(ctl_read_at("/test/wo", &pos, buf, sizeof(buf), why), -EINVAL);
	assert_int_equal(ctl_read_at("/test/nothing", &pos, buf, sizeof(buf), why), -ENOENT);
	assert_int_equal(ctl_read_at("/test/fail", &pos, buf, sizeof(buf), why), 0);
	assert_int_equal(ctl_read_at("/test/long", &pos, buf, 0, why), -EINVAL);
	assert_int_equal(pos, 3);
	pos = 0;
	assert_int_equal(ctl_read_at("/test/fail", &pos, buf, sizeof(buf), why), -EBUSY);
	assert_string_equal(why, "test file is busy");
	assert_string_equal(buf, "");
	assert_int_equal(pos, 0);
}

/* A directory with more names than one buffer holds is listed whole, in
 * pieces. */
static void test_list_long(void **state)
{
	static char want[700 * 16], all[700 * 16];
	char path[64], buf[CTL_READ_MAX], why[CTL_WHY_MAX];
	size_t pos = 0, len = 0, wlen = 0;
	int ret, pieces = 0;

	for (int i = 0; i < 700; i++) {
		snprintf(path, sizeof(path), "/test/cg/domain_%05d", i);
		assert_int_equal(ctl_mkdir(path, why), 0);
		wlen += snprintf(want + wlen, sizeof(want) - wlen,
				 "domain_%05d\n", i);
	}
	assert_true(wlen > CTL_READ_MAX);
	while ((ret = ctl_list_at("/test/cg", &pos, buf, sizeof(buf), why)) > 0) {
		assert_int_equal(buf[ret - 1], '\n');
		assert_true(len + ret < sizeof(all));
		memcpy(all + len, buf, ret);
		len += ret;
		pieces++;
	}
	assert_int_equal(ret, 0);
	all[len] = '\0';
	assert_string_equal(all, want);
	assert_int_equal(pieces, 2);
	assert_int_equal(pos, 700);

	/* a file lists as its name */
	pos = 0;
	assert_int_equal(ctl_list_at("/test/ro", &pos, buf, sizeof(buf), why), 3);
	assert_string_equal(buf, "ro\n");
	assert_int_equal(ctl_list_at("/test/ro", &pos, buf, sizeof(buf), why), 0);
	assert_int_equal(ctl_list_at("/nothing", &pos, buf, sizeof(buf), why), -ENOENT);
	assert_int_equal(ctl_list_at("/test", &pos, buf, 0, why), -EINVAL);

	for (int i = 0; i < 700; i++) {
		snprintf(path, sizeof(path), "/test/cg/domain_%05d", i);
		assert_int_equal(ctl_rmdir(path, why), 0);
	}
}

static void test_stat(void **state)
{
	char abs[CTL_PATH_MAX], why[CTL_WHY_MAX];
	bool dir;

	assert_int_equal(ctl_stat("/test/cg/..//ro", abs, sizeof(abs), &dir, why), 0);
	assert_string_equal(abs, "/test/ro");
	assert_false(dir);
	assert_int_equal(ctl_stat("/test/cg/", abs, sizeof(abs), &dir, why), 0);
	assert_string_equal(abs, "/test/cg");
	assert_true(dir);
	assert_int_equal(ctl_stat("/..", abs, sizeof(abs), &dir, why), 0);
	assert_string_equal(abs, "/");
	assert_int_equal(ctl_stat("/test/cg", abs, 5, &dir, why), -E2BIG);
	assert_int_equal(ctl_stat("/test/x", abs, sizeof(abs), &dir, why), -ENOENT);
}

/* ctl_error - the result is always negative, whichever sign is given. */
static void test_ctl_error_sign(void **state)
{
	ctl_lock();
	assert_int_equal(ctl_error(EBUSY, "x"), -EBUSY);
	assert_int_equal(ctl_error(-EBUSY, "x"), -EBUSY);
	ctl_unlock();
}

/* --- several CPUs ------------------------------------------------------- */

#define STRESS_THREADS 4
#define STRESS_ROUNDS 2000

static void *stress_thread(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	char path[64], buf[CTL_READ_MAX], why[CTL_WHY_MAX];

	host_set_cpu(cpu);
	for (int i = 0; i < STRESS_ROUNDS; i++) {
		snprintf(path, sizeof(path), "/test/cg/t%u_%d", cpu, i % 8);
		/* each result is one of a few, never a crash */
		int r = ctl_mkdir(path, why);
		if (r != 0 && r != -EEXIST)
			return (void *)1;
		host_ctl_list("/test/cg", buf, sizeof(buf), why);
		snprintf(path, sizeof(path), "/test/cg/t%u_%d/limit",
			 (cpu + 1) % STRESS_THREADS, i % 8);
		ctl_read(path, buf, sizeof(buf), why);
		snprintf(path, sizeof(path), "/test/cg/t%u_%d", cpu,
			 (i + 3) % 8);
		r = ctl_rmdir(path, why);
		if (r != 0 && r != -ENOENT)
			return (void *)1;
	}
	return NULL;
}

static void test_concurrent_mkdir_rmdir(void **state)
{
	pthread_t threads[STRESS_THREADS];
	char path[64], why[CTL_WHY_MAX];
	unsigned int saved = nr_cpus;

	nr_cpus = STRESS_THREADS;
	for (uintptr_t i = 0; i < STRESS_THREADS; i++)
		assert_int_equal(pthread_create(&threads[i], NULL,
						stress_thread, (void *)i), 0);
	for (int i = 0; i < STRESS_THREADS; i++) {
		void *ret;

		pthread_join(threads[i], &ret);
		assert_null(ret);
	}
	for (unsigned int cpu = 0; cpu < STRESS_THREADS; cpu++)
		for (int i = 0; i < 8; i++) {
			snprintf(path, sizeof(path), "/test/cg/t%u_%d", cpu, i);
			ctl_rmdir(path, why);
		}
	host_set_cpu(0);
	assert_null(ctl_first_child(node_at("/test/cg")));
	nr_cpus = saved;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lookup_absolute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lookup_relative, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lookup_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_children_in_creation_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_subtree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_root_panics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mkdir_rmdir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ctl_error_sign, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_mkdir_rmdir, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
