// SPDX-License-Identifier: MIT
/*
 * kernel/shell/cmd_poisontest.c - `poisontest slab|page`, in the debug build
 * only (make DEBUG=1): write to memory after freeing it, on purpose, to
 * show that the poison catches it (mm/debug_free.h). Each ends in a panic
 * when the memory is handed out again:
 *
 *   poisontest slab   an object of the cache "poisontest", freed and then
 *                     written: the panic names the object and the cache
 *   poisontest page   a page, freed and then written: the panic names the
 *                     frame
 *
 * In the normal build there is no such command.
 */
#ifdef CONFIG_DEBUG_POISON
#include <errno.h>
#include <string.h>

#include "kernel/base/platform.h"
#include "kernel/base/shell_command.h"
#include "mm/buddy.h"
#include "mm/slab.h"

#define POISONTEST_USAGE "usage: poisontest slab|page"

/* slab_after_free - two objects (so that the slab stays when one is
 * freed), free one, write to it, ask for an object again: the free list
 * hands the same one back, and its poison is checked. */
static void slab_after_free(void)
{
	struct kmem_cache *c = kmem_cache_create("poisontest", 64, 0, 0);
	char *a, *b;

	if (!c)
		return;
	a = kmem_cache_alloc(c, GFP_KERNEL);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	if (!a || !b)
		return;
	kmem_cache_free(c, a);
	printk("poisontest: object %p of cache poisontest freed; writing "
	       "to it\n", (void *)a);
	a[16] = 0x42;                       /* the bug */
	a = kmem_cache_alloc(c, GFP_KERNEL);  /* panics */
	kmem_cache_free(c, a);
	kmem_cache_free(c, b);
	kmem_cache_destroy(c);
}

/* page_after_free - a page freed and written: this CPU's page list hands
 * the same page back first. */
static void page_after_free(void)
{
	struct page *page;
	char *mem;

	preempt_disable();  /* the same CPU's list */
	page = alloc_pages(GFP_KERNEL, 0);
	if (!page) {
		preempt_enable();
		return;
	}
	mem = page_address(page);
	free_pages(page, 0);
	printk("poisontest: page %p freed; writing to it\n", (void *)mem);
	mem[100] = 0x42;                    /* the bug */
	page = alloc_pages(GFP_KERNEL, 0);  /* panics */
	preempt_enable();
	if (page)
		free_pages(page, 0);
}

static int cmd_poisontest(int argc, char **argv)
{
	if (argc != 2)
		return shell_error(EINVAL, POISONTEST_USAGE);
	if (!strcmp(argv[1], "slab"))
		slab_after_free();
	else if (!strcmp(argv[1], "page"))
		page_after_free();
	else
		return shell_error(EINVAL, POISONTEST_USAGE);
	return shell_error(EINVAL, "the debug build did not catch it");
}
SHELL_COMMAND(poisontest, "poisontest slab|page",
	      "debug build: write to freed memory on purpose (panics)");
#endif
