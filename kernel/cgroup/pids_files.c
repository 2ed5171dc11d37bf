// SPDX-License-Identifier: MIT
/*
 * kernel/cgroup/pids_files.c - pids.max, pids.current, pids.peak,
 * pids.events, pids.events.local (see kernel/cgroup/pids_files.h).
 *
 * Handlers run under the control tree's lock, one at a time; a refused
 * write changes nothing.
 */
#include "kernel/cgroup/pids_files.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/base/platform.h"
#include "kernel/cgroup/pids.h"
#include "kernel/fs/ctlfs.h"
#include "kernel/lib/memparse.h"

/* file_stat - the figures of the file's domain. */
static int file_stat(struct ctl_node *file, struct pids_stat *st)
{
	if (pids_read(ctl_priv(file), st))
		return ctl_error(ENOENT, "the domain is being removed");
	return 0;
}

static int max_read(struct ctl_node *file, char *buf, size_t size)
{
	struct pids_stat st;
	int ret = file_stat(file, &st);

	if (ret)
		return ret;
	if (st.max == PIDS_MAX)
		return snprintf(buf, size, "max\n");
	return snprintf(buf, size, "%ld\n", st.max);
}

/*
 * parse_limit - what Linux's pids_max_write takes: "max", or a number in
 * C's notation (base 0: "0x10" and "010" too, with an optional sign),
 * after blanks at either end are stripped.
 */
static int parse_limit(const char *value, long *limit)
{
	char text[64], *start = text;
	size_t len = strlen(value);
	long long v;
	int ret;

	if (len >= sizeof(text))
		return ctl_error(EINVAL, "'%.20s...' is not a number or max",
				 value);
	memcpy(text, value, len + 1);
	while (len > 0 && isspace((unsigned char)text[len - 1]))
		text[--len] = '\0';
	while (isspace((unsigned char)*start))
		start++;
	if (strcmp(start, "max") == 0) {
		*limit = PIDS_MAX;
		return 0;
	}
	ret = parse_c_int(start, &v);
	if (ret == -EINVAL)
		return ctl_error(EINVAL, "'%s' is not a number (0..%ld) or max",
				 start, PIDS_MAX - 1);
	if (ret)
		return ctl_error(ERANGE, "'%s' does not fit in 64 bits",
				 start);
	if (v < 0 || v >= PIDS_MAX)
		return ctl_error(EINVAL, "pids.max is 0..%ld or max, not %lld",
				 PIDS_MAX - 1, v);
	*limit = (long)v;
	return 0;
}

static int max_write(struct ctl_node *file, const char *value)
{
	long limit = 0;
	int ret = parse_limit(value, &limit);

	if (ret)
		return ret;
	if (pids_set_max(ctl_priv(file), limit))
		return ctl_error(ENOENT, "the domain is being removed");
	return 0;
}

/* figure_read - the read-only files: each shows one figure of the
 * domain, picked by the file's name. */
static int figure_read(struct ctl_node *file, char *buf, size_t size)
{
	const char *name = ctl_name(file);
	struct pids_stat st;
	int ret = file_stat(file, &st);

	if (ret)
		return ret;
	if (strcmp(name, "pids.current") == 0)
		return snprintf(buf, size, "%ld\n", st.counter);
	if (strcmp(name, "pids.peak") == 0)
		return snprintf(buf, size, "%ld\n", st.peak);
	if (strcmp(name, "pids.events") == 0)
		return snprintf(buf, size, "max %ld\n", st.events);
	return snprintf(buf, size, "max %ld\n", st.events_local);
}

static const struct ctl_ops max_ops = {.read = max_read, .write = max_write};
static const struct ctl_ops figure_ops = {.read = figure_read};

const struct pids_file pids_files[] = {
	{"pids.current", &figure_ops},
	{"pids.events", &figure_ops},
	{"pids.events.local", &figure_ops},
	{"pids.max", &max_ops},
	{"pids.peak", &figure_ops},
};
const size_t nr_pids_files = ARRAY_SIZE(pids_files);

bool pids_files_create(struct ctl_node *dir, struct mem_cgroup *memcg)
{
	for (size_t i = 0; i < nr_pids_files; i++)
		if (!ctl_create_file(dir, pids_files[i].name,
				     pids_files[i].ops, memcg))
			return false;
	return true;
}
