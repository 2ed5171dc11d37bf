// SPDX-License-Identifier: MIT
/*
 * tests/unit/host_mem.c - fake physical memory for host tests of mm/: a
 * 4 MiB-aligned malloc'd region that direct_map_offset maps at physical
 * address HOST_MEM_BASE.
 */
#include "tests/unit/host_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/base/platform.h"

#define HOST_MEM_ALIGN (4ul << 20)  /* a MAX_ORDER block */

void *host_mem;
size_t host_mem_size;
jmp_buf host_panic_jmp;

void host_panic_longjmp(const char *message)
{
	(void)message;
	longjmp(host_panic_jmp, 1);
}

void *host_mem_setup(size_t bytes)
{
	if (bytes == 0 || bytes % HOST_MEM_ALIGN != 0) {
		fprintf(stderr, "host_mem_setup: %zu is not a multiple of "
			"4 MiB\n", bytes);
		abort();
	}
	if (host_mem && host_mem_size != bytes) {
		free(host_mem);
		host_mem = NULL;
	}
	if (!host_mem) {
		host_mem = aligned_alloc(HOST_MEM_ALIGN, bytes);
		if (!host_mem) {
			fprintf(stderr, "host_mem_setup: out of memory\n");
			abort();
		}
		host_mem_size = bytes;
	}
	direct_map_offset = (uintptr_t)host_mem - HOST_MEM_BASE;
	return host_mem;
}

void host_mem_init(size_t bytes)
{
	struct phys_range ram = {HOST_MEM_BASE, HOST_MEM_BASE + bytes};
	struct phys_range reserved = {HOST_MEM_BASE,
				      HOST_MEM_BASE + HOST_MEM_RESERVED};

	host_mem_setup(bytes);
	mm_init(&ram, 1, &reserved, 1);
}

int host_mem_contains(const void *p, size_t len)
{
	const char *c = p, *base = host_mem;

	return host_mem && c >= base && len <= host_mem_size &&
	       (size_t)(c - base) <= host_mem_size - len;
}
