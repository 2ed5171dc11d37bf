// SPDX-License-Identifier: MIT
/*
 * kernel/lib/memparse.c - parsers for the values written to control
 * files: the v1 tree's strict sizes (memparse_size) and plain integers
 * (parse_int), and cgroup v2's sizes and integers in Linux's own syntax
 * (memparse_linux, parse_c_int). The rules, and where they differ from
 * Linux, are in memparse.h.
 *
 * The strict ones are written digit by digit rather than with strtoull(),
 * whose leading whitespace, sign handling and octal rule are what they
 * must reject; the v2 ones take C's notation, so they let newlib's
 * strtoull() and strtoll() read the number and check only what is around
 * it.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/memparse.h"

/* The largest page multiple that is a valid size: 0x7ffffffffffff000. */
#define SIZE_MAX_ALIGNED (SIZE_UNLIMITED & ~(uint64_t)(MEMPARSE_ALIGN - 1))

/* digit_value - the value of c as a digit in base (10 or 16), or -1. */
static int digit_value(char c, unsigned int base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return d < (int)base ? d : -1;
}

/* suffix_shift - the shift for a size suffix, k (10), m (20) ... e (60),
 * either case; -1 for any other character, or a shift past max_shift
 * (the v1 syntax stops at g, 30). */
static int suffix_shift(char c, int max_shift)
{
	static const char units[] = "kmgtpe";
	const char *u = c ? strchr(units, tolower((unsigned char)c)) : NULL;
	int shift = u ? 10 * (int)(u - units + 1) : -1;

	return shift <= max_shift ? shift : -1;
}

/* memparse_bytes - memparse_size's syntax without -1 and without the
 * rounding: the exact number of bytes, at most 2^63 - 1. */
static int memparse_bytes(const char *s, uint64_t *bytes)
{
	unsigned int base = 10;
	uint64_t v = 0;
	int ndigits = 0, d, shift = 0;

	if (!s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	/* The digits; the value may never pass 2^63 - 1. */
	for (; (d = digit_value(*s, base)) >= 0; s++, ndigits++) {
		if (v > (SIZE_UNLIMITED - d) / base)
			return -EINVAL;
		v = v * base + d;
	}
	if (ndigits == 0)
		return -EINVAL;
	/* At most one suffix, and then the end of the string. */
	if (*s && (shift = suffix_shift(*s, 30)) >= 0)
		s++;
	if (*s != '\0' || shift < 0)
		return -EINVAL;
	if (v > (SIZE_UNLIMITED >> shift))
		return -EINVAL;
	*bytes = v << shift;
	return 0;
}

int memparse_size(const char *s, uint64_t *bytes)
{
	uint64_t v;

	if (!s)
		return -EINVAL;
	if (strcmp(s, "-1") == 0) {
		*bytes = SIZE_UNLIMITED;
		return 0;
	}
	if (memparse_bytes(s, &v))
		return -EINVAL;
	/* Round up to a page; past the last page multiple means unlimited. */
	if (v > SIZE_MAX_ALIGNED)
		*bytes = SIZE_UNLIMITED;
	else
		*bytes = (v + MEMPARSE_ALIGN - 1) &
			 ~(uint64_t)(MEMPARSE_ALIGN - 1);
	return 0;
}

int memparse_linux(const char *s, uint64_t *bytes)
{
	unsigned long long v;
	int shift = 0;
	char *end;

	/* strtoull would skip blanks and take a sign. */
	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -EINVAL;
	if (*end && (shift = suffix_shift(*end, 60)) >= 0)
		end++;
	if (*end != '\0' || shift < 0 || v > (UINT64_MAX >> shift))
		return -EINVAL;
	*bytes = (uint64_t)v << shift;
	return 0;
}

int parse_c_int(const char *s, long long *out)
{
	long long v;
	char *end;

	/* strtoll would skip blanks before the sign; after it, it takes
	 * none, and an empty string is no number. */
	if (!s || !*s || isspace((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (end == s || *end != '\0')
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_int(const char *s, long *out)
{
	bool negative = false;
	unsigned long v = 0;
	/* The magnitude allowed: LONG_MAX, or one more when negative. */
	unsigned long max;
	int ndigits = 0;

	if (!s)
		return -EINVAL;
	if (*s == '-') {
		negative = true;
		s++;
	}
	max = negative ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;
	for (; *s >= '0' && *s <= '9'; s++, ndigits++) {
		unsigned int d = *s - '0';

		if (v > (max - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	if (ndigits == 0 || *s != '\0')
		return -EINVAL;
	/* -LONG_MIN does not fit in a long: negate in unsigned arithmetic. */
	*out = negative ? (long)(0 - v) : (long)v;
	return 0;
}
