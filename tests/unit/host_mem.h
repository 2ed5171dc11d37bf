/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/host_mem.h - fake "physical memory" for host tests of mm/.
 *
 * A host program has no physical memory to hand to mm_init, so it gets a
 * malloc'd region instead, given a physical address (HOST_MEM_BASE) by
 * setting direct_map_offset: phys_to_virt() then lands in the region, and
 * the real mm/ code runs on it unchanged. Frames below HOST_MEM_BASE are a
 * hole (PG_reserved), as low memory is on a PC.
 */
#ifndef TESTS_UNIT_HOST_MEM_H
#define TESTS_UNIT_HOST_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/base/platform.h"
#include "mm/init.h"

#define HOST_MEM_BASE 0x1000000ull   /* 16 MiB: physical start of the region */
#define HOST_MEM_RESERVED 0x10000ull /* the region's first 64 KiB: "kernel" */

/*
 * host_mem_setup - (re)allocate a region of bytes (a multiple of 4 MiB),
 * aligned to 4 MiB, at physical HOST_MEM_BASE. Returns its host address.
 * The previous region, if of another size, is freed.
 */
void *host_mem_setup(size_t bytes);

/*
 * host_mem_init - host_mem_setup(bytes), then mm_init with RAM
 * [HOST_MEM_BASE, +bytes) and [HOST_MEM_BASE, +HOST_MEM_RESERVED) reserved.
 * May be called again: every call starts from fresh memory state.
 */
void host_mem_init(size_t bytes);

/* The region of the last host_mem_setup. */
extern void *host_mem;
extern size_t host_mem_size;

/* host_mem_contains - is [p, p+len) inside the region? */
int host_mem_contains(const void *p, size_t len);

/*
 * HOST_EXPECT_PANIC(stmt, text) - run stmt, which must panic with a message
 * containing text (a cmocka failure otherwise). The panic is caught by
 * host_panic_hook and a longjmp. A panic may leave locks held: call
 * host_mem_init before using mm/ again (the tests' setup does).
 */
#include <setjmp.h>
#include <string.h>

extern jmp_buf host_panic_jmp;
void host_panic_longjmp(const char *message);

#define HOST_EXPECT_PANIC(stmt, text) \
	do { \
		host_panic_hook = host_panic_longjmp; \
		if (setjmp(host_panic_jmp) == 0) { \
			stmt; \
			host_panic_hook = NULL; \
			fail_msg("expected a panic from: %s", #stmt); \
		} \
		host_panic_hook = NULL; \
		if (!strstr(host_last_panic, (text))) \
			fail_msg("panic \"%s\" does not say \"%s\"", \
				 host_last_panic, (text)); \
	} while (0)

#endif
