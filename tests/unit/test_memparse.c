// SPDX-License-Identifier: MIT
/*
 * tests/unit/test_memparse.c - the v1 size syntax (docs/interface.md), the
 * strict integer parser, and cgroup v2's sizes and integers in Linux's
 * syntax, table-driven: every accepted form with its value, and every
 * rejected one.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "kernel/lib/memparse.h"

struct size_case {
	const char *text;
	int ret;
	uint64_t bytes;  /* when ret == 0 */
};

static const struct size_case size_cases[] = {
	/* decimal, rounded up to a page */
	{"0", 0, 0},
	{"1", 0, 4096},
	{"4095", 0, 4096},
	{"4096", 0, 4096},
	{"4097", 0, 8192},
	{"1000000", 0, 1003520},
	{"010", 0, 4096},           /* leading zero: still decimal */
	{"0008192", 0, 8192},
	/* suffixes */
	{"1k", 0, 4096},
	{"4k", 0, 4096},
	{"5K", 0, 8192},
	{"64k", 0, 65536},
	{"8m", 0, 8u << 20},
	{"8M", 0, 8u << 20},
	{"1g", 0, 1ull << 30},
	{"2G", 0, 2ull << 30},
	{"0k", 0, 0},
	/* hexadecimal */
	{"0x1000", 0, 4096},
	{"0X1000", 0, 4096},
	{"0x1", 0, 4096},
	{"0xfff", 0, 4096},
	{"0xABCDEF", 0, 0xABD000},
	{"0x10k", 0, 16 << 10},
	{"0x2M", 0, 2u << 20},
	{"0x0", 0, 0},
	/* unlimited */
	{"-1", 0, SIZE_UNLIMITED},
	{"9223372036854775807", 0, SIZE_UNLIMITED},   /* what it reads back as */
	{"9223372036854771712", 0, 0x7ffffffffffff000ull},  /* last page */
	{"9223372036854771713", 0, SIZE_UNLIMITED},   /* rounds past it */
	{"0x7fffffffffffffff", 0, SIZE_UNLIMITED},
	{"8589934591G", 0, 0x7fffffffc0000000ull},  /* 2^63 - 2^30 */
	/* rejected */
	{"", -EINVAL, 0},
	{"1.0", -EINVAL, 0},
	{"1xx", -EINVAL, 0},
	{"xx", -EINVAL, 0},
	{"k", -EINVAL, 0},
	{"-2", -EINVAL, 0},
	{"-0", -EINVAL, 0},
	{"-01", -EINVAL, 0},
	{"-1k", -EINVAL, 0},
	{"--1", -EINVAL, 0},
	{"-", -EINVAL, 0},
	{"+1", -EINVAL, 0},
	{" 1", -EINVAL, 0},
	{"1 ", -EINVAL, 0},
	{"1 k", -EINVAL, 0},
	{"1\n", -EINVAL, 0},
	{"\t1", -EINVAL, 0},
	{"1kk", -EINVAL, 0},
	{"1km", -EINVAL, 0},
	{"1T", -EINVAL, 0},
	{"1t", -EINVAL, 0},
	{"1b", -EINVAL, 0},
	{"0x", -EINVAL, 0},
	{"0xk", -EINVAL, 0},
	{"0xg", -EINVAL, 0},
	{"x10", -EINVAL, 0},
	{"0x1.5", -EINVAL, 0},
	{"1e3", -EINVAL, 0},
	{"9223372036854775808", -EINVAL, 0},          /* 2^63 */
	{"18446744073709551615", -EINVAL, 0},         /* 2^64 - 1 */
	{"18446744073709551616", -EINVAL, 0},         /* 2^64 */
	{"99999999999999999999999", -EINVAL, 0},
	{"0x8000000000000000", -EINVAL, 0},
	{"0x10000000000000000", -EINVAL, 0},
	{"8589934592G", -EINVAL, 0},                  /* 2^63 */
	{"9007199254740992k", -EINVAL, 0},            /* 2^63 */
};

/* check_sizes - each case through parse (named name): its return, its
 * value, and nothing written on a failure. */
static void check_sizes(const char *name,
			int (*parse)(const char *, uint64_t *),
			const struct size_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct size_case *c = &cases[i];
		uint64_t bytes = 12345;
		int ret = parse(c->text, &bytes);

		if (ret != c->ret)
			fail_msg("%s(\"%s\") returned %d, expected %d", name,
				 c->text, ret, c->ret);
		if (ret == 0 && bytes != c->bytes)
			fail_msg("%s(\"%s\") = %llu, expected %llu", name,
				 c->text, (unsigned long long)bytes,
				 (unsigned long long)c->bytes);
		if (ret != 0 && bytes != 12345)
			fail_msg("%s(\"%s\") failed but changed the result",
				 name, c->text);
	}
}

static void test_memparse_table(void **state)
{
	check_sizes("memparse_size", memparse_size, size_cases,
		    sizeof(size_cases) / sizeof(size_cases[0]));
}

static void test_memparse_null(void **state)
{
	uint64_t bytes;

	assert_int_equal(memparse_size(NULL, &bytes), -EINVAL);
}

/* Every accepted value is a page multiple or unlimited, over a sweep. */
static void test_memparse_alignment(void **state)
{
	char text[32];

	for (unsigned long v = 0; v < 20000; v += 7) {
		uint64_t bytes;

		snprintf(text, sizeof(text), "%lu", v);
		assert_int_equal(memparse_size(text, &bytes), 0);
		assert_int_equal(bytes % 4096, 0);
		assert_true(bytes >= v && bytes < v + 4096);
	}
}

struct int_case {
	const char *text;
	int ret;
	long value;
};

static const struct int_case int_cases[] = {
	{"0", 0, 0},
	{"1", 0, 1},
	{"42", 0, 42},
	{"007", 0, 7},
	{"-1", 0, -1},
	{"-0", 0, 0},
	{"9223372036854775807", 0, LONG_MAX},
	{"-9223372036854775808", 0, LONG_MIN},
	{"", -EINVAL, 0},
	{"-", -EINVAL, 0},
	{"+1", -EINVAL, 0},
	{" 1", -EINVAL, 0},
	{"1 ", -EINVAL, 0},
	{"1x", -EINVAL, 0},
	{"0x10", -EINVAL, 0},
	{"1k", -EINVAL, 0},
	{"1.5", -EINVAL, 0},
	{"--1", -EINVAL, 0},
	{"9223372036854775808", -EINVAL, 0},
	{"-9223372036854775809", -EINVAL, 0},
	{"99999999999999999999", -EINVAL, 0},
};

static void test_parse_int_table(void **state)
{
	for (size_t i = 0; i < sizeof(int_cases) / sizeof(int_cases[0]); i++) {
		const struct int_case *c = &int_cases[i];
		long value = 12345;
		int ret = parse_int(c->text, &value);

		if (ret != c->ret)
			fail_msg("parse_int(\"%s\") returned %d, expected %d",
				 c->text, ret, c->ret);
		if (ret == 0 && value != c->value)
			fail_msg("parse_int(\"%s\") = %ld, expected %ld",
				 c->text, value, c->value);
		if (ret != 0 && value != 12345)
			fail_msg("parse_int(\"%s\") failed but changed the result",
				 c->text);
	}
	assert_int_equal(parse_int(NULL, &(long){0}), -EINVAL);
}

/* cgroup v2's sizes: Linux's memparse, C's notation, k to e. */
static const struct size_case linux_cases[] = {
	{"0", 0, 0},
	{"4097", 0, 4097},                     /* not rounded: the caller does */
	{"010", 0, 8},                         /* octal, as Linux reads it */
	{"0x10", 0, 16},
	{"0X10k", 0, 16 << 10},
	{"1k", 0, 1024},
	{"1K", 0, 1024},
	{"1m", 0, 1u << 20},
	{"1G", 0, 1ull << 30},
	{"1t", 0, 1ull << 40},
	{"1T", 0, 1ull << 40},
	{"1p", 0, 1ull << 50},
	{"1P", 0, 1ull << 50},
	{"1e", 0, 1ull << 60},
	{"0x1e", 0, 30},                       /* e is a hex digit there */
	{"15E", 0, 15ull << 60},
	{"18446744073709551615", 0, UINT64_MAX},
	{"", -EINVAL, 0},
	{"k", -EINVAL, 0},
	{"-1", -EINVAL, 0},
	{"+1", -EINVAL, 0},
	{" 1", -EINVAL, 0},
	{"1 ", -EINVAL, 0},
	{"08", -EINVAL, 0},                    /* not an octal digit */
	{"0x", -EINVAL, 0},
	{"1kk", -EINVAL, 0},
	{"1KiB", -EINVAL, 0},
	{"1x", -EINVAL, 0},
	{"1.5", -EINVAL, 0},
	{"16e", -EINVAL, 0},                   /* 2^64: past 64 bits */
	{"18446744073709551616", -EINVAL, 0},
};

static void test_memparse_linux_table(void **state)
{
	check_sizes("memparse_linux", memparse_linux, linux_cases,
		    sizeof(linux_cases) / sizeof(linux_cases[0]));
	assert_int_equal(memparse_linux(NULL, &(uint64_t){0}), -EINVAL);
}

struct c_int_case {
	const char *text;
	int ret;
	long long value;
};

/* cgroup v2's integers: Linux's kstrtoll(s, 0). */
static const struct c_int_case c_int_cases[] = {
	{"0", 0, 0},
	{"42", 0, 42},
	{"+42", 0, 42},
	{"-42", 0, -42},
	{"0x10", 0, 16},
	{"0X10", 0, 16},
	{"-0x10", 0, -16},
	{"+0x10", 0, 16},
	{"020", 0, 16},
	{"00", 0, 0},
	{"9223372036854775807", 0, LLONG_MAX},
	{"-9223372036854775808", 0, LLONG_MIN},
	{"", -EINVAL, 0},
	{"+", -EINVAL, 0},
	{"-", -EINVAL, 0},
	{"+-1", -EINVAL, 0},
	{"--1", -EINVAL, 0},
	{" 1", -EINVAL, 0},
	{"1 ", -EINVAL, 0},
	{"- 1", -EINVAL, 0},
	{"0x", -EINVAL, 0},
	{"08", -EINVAL, 0},
	{"1x", -EINVAL, 0},
	{"1k", -EINVAL, 0},
	{"1.5", -EINVAL, 0},
	{"max", -EINVAL, 0},
	{"9223372036854775808", -ERANGE, 0},
	{"-9223372036854775809", -ERANGE, 0},
	{"99999999999999999999", -ERANGE, 0},
	{"0xffffffffffffffffff", -ERANGE, 0},
};

static void test_parse_c_int_table(void **state)
{
	for (size_t i = 0; i < sizeof(c_int_cases) / sizeof(c_int_cases[0]);
	     i++) {
		const struct c_int_case *c = &c_int_cases[i];
		long long value = 12345;
		int ret = parse_c_int(c->text, &value);

		if (ret != c->ret)
			fail_msg("parse_c_int(\"%s\") returned %d, expected %d",
				 c->text, ret, c->ret);
		if (ret == 0 && value != c->value)
			fail_msg("parse_c_int(\"%s\") = %lld, expected %lld",
				 c->text, value, c->value);
		if (ret != 0 && value != 12345)
			fail_msg("parse_c_int(\"%s\") failed but changed the "
				 "result", c->text);
	}
	assert_int_equal(parse_c_int(NULL, &(long long){0}), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memparse_table),
		cmocka_unit_test(test_memparse_null),
		cmocka_unit_test(test_memparse_alignment),
		cmocka_unit_test(test_parse_int_table),
		cmocka_unit_test(test_memparse_linux_table),
		cmocka_unit_test(test_parse_c_int_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
