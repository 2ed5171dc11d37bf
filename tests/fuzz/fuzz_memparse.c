// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_memparse.c - libFuzzer target for the size parser and
 * the integer parser (kernel/lib/memparse.c).
 *
 * Properties: no input crashes either parser; an accepted size is a
 * multiple of 4096 no larger than 2^63 - 4096, or SIZE_UNLIMITED; a
 * rejected input leaves the result alone; an accepted integer is what
 * strtol reads from the same text.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/memparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[64];
	uint64_t bytes = 1;
	long value = 1;
	int ret;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';

	ret = memparse_size(text, &bytes);
	if (ret != 0 && ret != -EINVAL)
		abort();
	if (ret == 0 && bytes != SIZE_UNLIMITED &&
	    (bytes % 4096 != 0 || bytes > SIZE_UNLIMITED - 4095))
		abort();
	if (ret != 0 && bytes != 1)
		abort();
	/* Whatever an accepted size is, it is accepted again as itself. */
	if (ret == 0) {
		char again[32];
		uint64_t round;

		snprintf(again, sizeof(again), "%llu", (unsigned long long)bytes);
		if (memparse_size(again, &round) != 0 || round != bytes)
			abort();
	}

	ret = parse_int(text, &value);
	if (ret != 0 && ret != -EINVAL)
		abort();
	if (ret != 0 && value != 1)
		abort();
	if (ret == 0) {
		char *end;

		errno = 0;
		if (strtol(text, &end, 10) != value || *end || errno)
			abort();
	}
	return 0;
}
