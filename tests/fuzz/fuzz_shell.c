// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_shell.c - libFuzzer target for the shell: any bytes,
 * typed into the line discipline and run by the executor over the test
 * control tree (tests/unit/host_ctltree.h), and the same bytes handed to
 * shell_execute() as one line.
 *
 * Properties: nothing crashes (ASan, UBSan), and nothing leaks: after the
 * tree is removed, the slab allocator holds exactly the objects it held
 * before the input. poweroff is caught with a longjmp.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fs/ctlfs.h"
#include "kernel/shell/shell.h"
#include "mm/slab.h"
#include "tests/unit/host_console.h"
#include "tests/unit/host_ctltree.h"
#include "tests/unit/host_mem.h"

static jmp_buf poweroff_jmp;

static void poweroff_hook(int value)
{
	longjmp(poweroff_jmp, 1);
}

static unsigned long slab_objects(void)
{
	struct kmem_cache *cache;
	unsigned long n = 0;

	list_for_each_entry(cache, &slab_caches, list)
		n += kmem_cache_in_use(cache);
	return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	host_mem_init(8u << 20);
	host_console_discard(true);
	host_poweroff_hook = poweroff_hook;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char line[512];
	unsigned long objects = slab_objects();

	if (!host_ctltree_create())
		abort();
	shell_chdir("/test");

	host_console_input_clear();
	host_console_input((const char *)data, size);
	if (setjmp(poweroff_jmp) == 0)
		shell_run();

	if (size < sizeof(line)) {
		memcpy(line, data, size);
		line[size] = '\0';
		if (setjmp(poweroff_jmp) == 0)
			shell_execute(line);
	}

	host_ctltree_remove();
	if (ctl_first_child(ctl_root()) || slab_objects() != objects)
		abort();
	return 0;
}
