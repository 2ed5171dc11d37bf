// SPDX-License-Identifier: MIT
/*
 * kernel/lib/cmdline.c - reading key=value words from the kernel command line.
 */
#include "kernel/lib/cmdline.h"

#include <string.h>

static char cmdline[256];

void cmdline_set(const char *line)
{
	strncpy(cmdline, line ? line : "", sizeof(cmdline) - 1);
	cmdline[sizeof(cmdline) - 1] = 0;
}

/* find_word - the start of the word named key (followed by '=', space or
 * the end), or NULL. */
static const char *find_word(const char *key)
{
	size_t len = strlen(key);
	for (const char *p = cmdline; *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, len) &&
		    (p[len] == '=' || p[len] == ' ' || p[len] == 0))
			return p;
		while (*p && *p != ' ')
			p++;
	}
	return NULL;
}

bool cmdline_value(const char *key, char *buf, size_t size)
{
	const char *p = find_word(key);
	size_t n = 0;
	if (!p || p[strlen(key)] != '=')
		return false;
	p += strlen(key) + 1;
	while (p[n] && p[n] != ' ' && n + 1 < size) {
		buf[n] = p[n];
		n++;
	}
	buf[n] = 0;
	return true;
}
