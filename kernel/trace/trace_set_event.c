// SPDX-License-Identifier: MIT
/*
 * kernel/trace/trace_set_event.c - the words of a write to set_event
 * (kernel/trace/trace_set_event.h).
 */
#include "kernel/trace/trace_set_event.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* match_word - the events one word (without its '!') names, a bit each;
 * 0 if none. */
static uint64_t match_word(const char *w, size_t len,
			   const char *const *systems,
			   const char *const *names, unsigned int n)
{
	const char *colon = memchr(w, ':', len);
	const char *sys = NULL, *name = w;
	size_t sys_len = 0, name_len = len;
	uint64_t mask = 0;

	if (colon) {
		sys = w;
		sys_len = (size_t)(colon - w);
		name = colon + 1;
		name_len = len - sys_len - 1;
	}
	for (unsigned int i = 0; i < n; i++) {
		bool sys_ok = !sys || (sys_len == 1 && sys[0] == '*') ||
			      (strlen(systems[i]) == sys_len &&
			       !memcmp(systems[i], sys, sys_len));
		/* "*" alone, or "SYSTEM:" / "SYSTEM:*": every name. */
		bool any = (name_len == 1 && name[0] == '*') ||
			   (sys && name_len == 0);
		bool name_ok = any || (strlen(names[i]) == name_len &&
				       !memcmp(names[i], name, name_len));

		if (sys_ok && name_ok && len > 0)
			mask |= 1ull << i;
	}
	return mask;
}

int trace_set_event_parse(const char *value, const char *const *systems,
			  const char *const *names, unsigned int n,
			  uint64_t *on, uint64_t *off, char *bad)
{
	uint64_t all = n >= 64 ? ~0ull : (1ull << n) - 1;
	const char *p = value;
	bool any_word = false;

	*on = 0;
	*off = 0;
	for (;;) {
		const char *w;
		size_t len;
		bool neg;
		uint64_t mask;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		w = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		len = (size_t)(p - w);
		any_word = true;
		neg = w[0] == '!';
		mask = match_word(w + neg, len - neg, systems, names, n);
		if (!mask) {
			size_t keep = len < TRACE_WORD_MAX - 1 ? len :
				      TRACE_WORD_MAX - 1;
			memcpy(bad, w, keep);
			bad[keep] = '\0';
			*on = 0;
			*off = 0;
			return -EINVAL;
		}
		if (neg) {
			*off |= mask;
			*on &= ~mask;
		} else {
			*on |= mask;
			*off &= ~mask;
		}
	}
	if (!any_word)
		*off = all;  /* an empty write: every event off */
	return 0;
}
