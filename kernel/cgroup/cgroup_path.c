// SPDX-License-Identifier: MIT
/*
 * kernel/cgroup/cgroup_path.c - a domain's path from the root of its
 * hierarchy (see kernel/cgroup/cgroup_path.h; Linux: cgroup_path()).
 */
#include "kernel/cgroup/cgroup_path.h"

#include <stdio.h>
#include <string.h>

#include "mm/memcg/memcontrol.h"

size_t cgroup_path(const struct mem_cgroup *memcg, char *buf, size_t size)
{
	const struct mem_cgroup *m;
	size_t total = 0, pos, end;

	/* The length first: "/" and a name for each level below the root. */
	for (m = memcg; m->parent; m = m->parent)
		total += 1 + strlen(m->name);
	if (size == 0)
		return total ? total : 1;
	end = total < size - 1 ? total : size - 1;  /* what fits */
	if (total == 0) {
		snprintf(buf, size, "/");  /* the root */
		return 1;
	}

	/* Then fill it in from the end, leaf first, keeping what fits. */
	buf[end] = '\0';
	pos = total;
	for (m = memcg; m->parent; m = m->parent) {
		size_t n = strlen(m->name);

		pos -= n;
		for (size_t i = 0; i < n; i++)
			if (pos + i < end)
				buf[pos + i] = m->name[i];
		pos--;
		if (pos < end)
			buf[pos] = '/';
	}
	return total;
}
