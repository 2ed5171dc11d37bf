// SPDX-License-Identifier: MIT
/*
 * tests/unit/host_ctltree.c - the test control tree described in
 * host_ctltree.h: handlers of every kind, for ctlfs and shell tests.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/lib/memparse.h"
#include "tests/unit/host_ctltree.h"

static struct ctl_node *test_dir;
static char value_text[64];
static uint64_t size_bytes, limit_bytes;

static int value_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "%s\n", value_text);
}

static int value_write(struct ctl_node *file, const char *value)
{
	size_t len = strlen(value);

	if (len == 0 || len >= sizeof(value_text))
		return ctl_error(EINVAL, "value must be 1 to 63 bytes");
	if (strcmp(value, "bad") == 0)
		return ctl_error(EINVAL, "'bad' is refused");
	memcpy(value_text, value, len + 1);
	return 0;
}

static int size_read(struct ctl_node *file, char *buf, size_t size)
{
	uint64_t *bytes = ctl_priv(file);

	return snprintf(buf, size, "%llu\n", (unsigned long long)*bytes);
}

static int size_write(struct ctl_node *file, const char *value)
{
	uint64_t *bytes = ctl_priv(file);

	if (memparse_size(value, bytes) < 0)
		return ctl_error(EINVAL, "'%s' is not a size", value);
	return 0;
}

static int ro_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "read only\n");
}

static int wo_write(struct ctl_node *file, const char *value)
{
	return 0;
}

static int empty_read(struct ctl_node *file, char *buf, size_t size)
{
	buf[0] = '\0';
	return 0;
}

static int noline_read(struct ctl_node *file, char *buf, size_t size)
{
	return snprintf(buf, size, "no newline");
}

static int fail_read(struct ctl_node *file, char *buf, size_t size)
{
	return ctl_error(EBUSY, "test file is busy");
}

static int fail_write(struct ctl_node *file, const char *value)
{
	return -ENOSPC;
}

static int long_show(struct ctl_node *file, struct ctl_seq *seq)
{
	for (int i = 1; i <= HOST_LONG_LINES; i++)
		if (!ctl_seq_printf(seq, "line %d of %d\n", i, HOST_LONG_LINES))
			break;
	return 0;
}

static const struct ctl_ops value_ops = {.read = value_read,
					 .write = value_write};
static const struct ctl_ops size_ops = {.read = size_read,
					.write = size_write};
static const struct ctl_ops ro_ops = {.read = ro_read};
static const struct ctl_ops wo_ops = {.write = wo_write};
static const struct ctl_ops empty_ops = {.read = empty_read};
static const struct ctl_ops noline_ops = {.read = noline_read};
static const struct ctl_ops fail_ops = {.read = fail_read,
					.write = fail_write};
static const struct ctl_ops long_ops = {.show = long_show};

static int domain_mkdir(struct ctl_node *dir, const char *name);
static int domain_rmdir(struct ctl_node *dir);
static const struct ctl_ops domain_ops = {.mkdir = domain_mkdir,
					  .rmdir = domain_rmdir};
static const struct ctl_ops cg_ops = {.mkdir = domain_mkdir};

static int domain_mkdir(struct ctl_node *dir, const char *name)
{
	struct ctl_node *d = ctl_create_dir(dir, name, &domain_ops, NULL);

	if (!d)
		return ctl_error(ENOMEM, "no memory for domain %s", name);
	if (!ctl_create_file(d, "limit", &size_ops, &limit_bytes)) {
		ctl_remove(d);
		return ctl_error(ENOMEM, "no memory for domain %s", name);
	}
	return 0;
}

static int domain_rmdir(struct ctl_node *dir)
{
	for (struct ctl_node *c = ctl_first_child(dir); c;
	     c = ctl_next_sibling(c))
		if (ctl_is_dir(c))
			return ctl_error(EBUSY, "domain %s has domains in it",
					 ctl_name(dir));
	ctl_remove(dir);
	return 0;
}

struct ctl_node *host_ctltree_create(void)
{
	struct ctl_node *d;

	strcpy(value_text, "initial");
	size_bytes = 4096;
	limit_bytes = SIZE_UNLIMITED;
	ctl_lock();
	d = test_dir = ctl_create_dir(NULL, "test", NULL, NULL);
	if (d) {
		ctl_create_file(d, "value", &value_ops, NULL);
		ctl_create_file(d, "size", &size_ops, &size_bytes);
		ctl_create_file(d, "ro", &ro_ops, NULL);
		ctl_create_file(d, "wo", &wo_ops, NULL);
		ctl_create_file(d, "empty", &empty_ops, NULL);
		ctl_create_file(d, "noline", &noline_ops, NULL);
		ctl_create_file(d, "fail", &fail_ops, NULL);
		ctl_create_dir(d, "cg", &cg_ops, NULL);
		ctl_create_file(d, "long", &long_ops, NULL);
	}
	ctl_unlock();
	return d;
}

void host_ctltree_remove(void)
{
	ctl_lock();
	if (test_dir)
		ctl_remove(test_dir);
	test_dir = NULL;
	ctl_unlock();
}

int host_ctl_list(const char *path, char *buf, size_t size, char *why)
{
	size_t pos = 0;

	return ctl_list_at(path, &pos, buf, size, why);
}
